import type { FastifyInstance } from 'fastify';
import type { Language } from '@gatehouse/contract';
import type { ServerChannel } from 'ssh2';
import type { AuthUser } from '../../../http/context.ts';
import type { PermedAccount } from '../../perms/permedAccounts.ts';
import { gatewayOf } from '../gatewayInstance.ts';
import type { GatewaySession } from '../gateway/gatewaySession.ts';
import type { TypedLogin } from '../gateway/sshTarget.ts';
import { recordReviewedSession } from '../tokens/loginAssetReview.ts';
import { checkNativeAccess, NativeReviewPending } from './nativeAccessRules.ts';
import { waitForApproval } from './reviewWait.ts';
import { sm } from './sshMessages.ts';
import { connectableAccounts, grantedAssets, searchAssets, type GrantedAsset } from './sshTargets.ts';

export interface Pty {
  cols: number;
  rows: number;
  term: string;
}

export interface ShellContext {
  app: FastifyInstance;
  user: AuthUser;
  lang: Language;
  remoteAddr: string;
  pty: Pty;
}

/**
 * One interactive SSH channel: the menu (banner, `p` list, search by typing, pick by number or
 * name, account picker, `h`, `q`/`exit`) in the style of the original's koko, and while an asset
 * is open the relay between the client's PTY and a gateway session (login_from ST); when that
 * session ends the menu comes back.
 */
export class SshShell {
  private line = '';
  private shown: GrantedAsset[] = [];
  private picking?: { asset: GrantedAsset; accounts: PermedAccount[] };
  /** A virtual account's login being asked: the username (@INPUT), then the password (not echoed). */
  private asking?: { asset: GrantedAsset; account: PermedAccount; username?: string };
  private session?: GatewaySession;
  private busy = false;
  /** One-command login: the channel ends with the session instead of going back to the menu. */
  private oneShot = false;
  /** Waiting on a login-asset ticket: Ctrl+C (or the client leaving) aborts, giving the ticket up. */
  private waiting?: AbortController;

  constructor(
    private readonly ch: ServerChannel,
    private readonly c: ShellContext,
  ) {
    ch.on('data', (d: Buffer) => this.onData(d.toString('utf8')));
  }

  start(): void {
    this.write(sm(this.c.lang, 'ssh_banner', { name: this.c.user.name || this.c.user.username }));
    this.write(sm(this.c.lang, 'ssh_help'));
    this.prompt();
  }

  resize(cols: number, rows: number): void {
    this.c.pty = { ...this.c.pty, cols, rows };
    this.session?.resize(cols, rows);
  }

  /** Opens the session directly (one-command login), closing the channel when it ends. */
  async direct(asset: GrantedAsset, account: PermedAccount): Promise<void> {
    this.oneShot = true;
    await this.connect(asset, account);
    if (this.asking) return this.prompt();
    if (!this.session) this.exit(1);
  }

  private write(s: string): void {
    if (this.ch.writable) this.ch.write(s);
  }

  private prompt(): void {
    const { lang } = this.c;
    if (this.asking)
      this.write(sm(lang, this.asking.username === undefined ? 'ssh_username_prompt' : 'ssh_password_prompt'));
    else this.write(sm(lang, this.picking ? 'ssh_account_prompt' : 'ssh_prompt'));
  }

  /** A typed password is not echoed. */
  private get secretInput(): boolean {
    return this.asking?.username !== undefined;
  }

  private exit(code: number): void {
    this.ch.exit(code);
    this.ch.end();
  }

  /** Says something about the login: on stderr for a one-command login (stdout is the asset's output). */
  private say(s: string): void {
    if (this.oneShot) this.ch.stderr.write(s);
    else this.write(s);
  }

  private onData(s: string): void {
    if (this.session) {
      this.session.stream.write(s);
      return;
    }
    if (this.waiting) {
      if (s.includes('\x03')) this.waiting.abort();
      return;
    }
    if (this.busy) return;
    for (const ch of s) {
      if (ch === '\r' || ch === '\n') {
        const line = this.secretInput ? this.line : this.line.trim();
        this.line = '';
        this.write('\r\n');
        this.busy = true;
        void this.handle(line).finally(() => {
          this.busy = false;
          if (!this.session && this.ch.writable) this.prompt();
        });
        return;
      }
      if (ch === '\x7f' || ch === '\b') {
        if (this.line) {
          this.line = this.line.slice(0, -1);
          if (!this.secretInput) this.write('\b \b');
        }
      } else if (ch === '\x03') {
        this.line = '';
        this.picking = undefined;
        this.asking = undefined;
        this.write('^C\r\n');
        this.prompt();
      } else if (ch === '\x04' && !this.line) {
        this.write(sm(this.c.lang, 'ssh_bye'));
        return this.exit(0);
      } else if (ch >= ' ') {
        this.line += ch;
        if (!this.secretInput) this.write(ch);
      }
    }
  }

  private async handle(line: string): Promise<void> {
    const { lang } = this.c;
    if (this.asking) return this.typedLogin(line);
    if (this.picking) return this.pickAccount(line);
    if (line === '') return;
    if (line === 'q' || line === 'exit' || line === 'quit') {
      this.write(sm(lang, 'ssh_bye'));
      return this.exit(0);
    }
    if (line === 'h') return this.write(sm(lang, 'ssh_help'));
    const assets = await grantedAssets(this.c.app, this.c.user.id);
    if (line === 'p') return this.list(assets);
    const n = /^\d+$/.test(line) ? Number(line) : 0;
    const byNumber = n >= 1 ? this.shown[n - 1] : undefined;
    const found = byNumber ? [byNumber] : searchAssets(assets, line);
    if (found.length === 1) return this.pickAsset(found[0]!);
    return this.list(found);
  }

  private list(assets: GrantedAsset[]): void {
    const { lang } = this.c;
    this.shown = assets;
    if (!assets.length) return this.write(sm(lang, 'ssh_none'));
    const w = Math.max(4, ...assets.map((a) => a.name.length));
    this.write(`${sm(lang, 'ssh_list_header')}\r\n`);
    assets.forEach((a, i) => this.write(`  ${String(i + 1).padEnd(4)}| ${a.name.padEnd(w)} | ${a.address}\r\n`));
    this.write('\r\n');
  }

  private async pickAsset(asset: GrantedAsset): Promise<void> {
    const { lang } = this.c;
    const accounts = await connectableAccounts(this.c.app, this.c.user.id, asset.id);
    if (!accounts.length) return this.write(sm(lang, 'ssh_no_account', { asset: asset.name }));
    if (accounts.length === 1) return this.connect(asset, accounts[0]!);
    this.picking = { asset, accounts };
    this.write(`${sm(lang, 'ssh_accounts_header', { asset: asset.name })}\r\n`);
    accounts.forEach((a, i) =>
      this.write(`  ${String(i + 1).padEnd(4)}| ${a.real ? `${a.name} (${a.username})` : a.name}\r\n`),
    );
  }

  private async pickAccount(line: string): Promise<void> {
    const { asset, accounts } = this.picking!;
    this.picking = undefined;
    if (line === '') return;
    const n = /^\d+$/.test(line) ? Number(line) : 0;
    const account = n >= 1 ? accounts[n - 1] : accounts.find((a) => a.name === line || a.username === line);
    if (!account) return this.write(sm(this.c.lang, 'ssh_bad_choice'));
    return this.connect(asset, account);
  }

  /** The answers to the username (@INPUT) and password prompts of a virtual account. */
  private async typedLogin(line: string): Promise<void> {
    const a = this.asking!;
    if (a.username === undefined) {
      if (!line) {
        this.asking = undefined;
        return;
      }
      a.username = line;
      return;
    }
    this.asking = undefined;
    const username = a.account.alias === '@INPUT' ? a.username : this.c.user.username;
    await this.connect(a.asset, a.account, { name: a.account.name, username, password: line });
    if (this.oneShot && !this.session) this.exit(1);
  }

  private async connect(asset: GrantedAsset, account: PermedAccount, typed?: TypedLogin): Promise<void> {
    const { lang, user, pty } = this.c;
    if (!account.real && !typed) {
      // @INPUT asks the username first; @USER is the user's own, so only the password.
      this.asking = { asset, account, ...(account.alias === '@USER' ? { username: user.username } : {}) };
      return;
    }
    this.say(sm(lang, 'ssh_connecting', { asset: asset.name, account: typed?.username ?? account.username }));
    const fail = (e: unknown) => this.say(sm(lang, 'ssh_connect_failed', { error: (e as Error).message }));
    let reviewed: string | false | undefined;
    try {
      reviewed = await this.rules(asset, account, typed);
    } catch (e) {
      return fail(e);
    }
    // Not approved: the menu goes back to the asset list (a one-command login exits, see direct()).
    if (reviewed === false) {
      if (!this.oneShot && this.ch.writable) this.list(await grantedAssets(this.c.app, user.id));
      return;
    }
    let s: GatewaySession;
    try {
      s = await gatewayOf(this.c.app).openSession({
        user: { id: user.id, name: user.name, username: user.username },
        assetId: asset.id,
        accountId: account.real ? account.id : account.alias,
        ...(typed ? { typed } : {}),
        lang,
        loginFrom: 'ST',
        remoteAddr: this.c.remoteAddr,
        cols: pty.cols,
        rows: pty.rows,
        term: pty.term,
      });
    } catch (e) {
      return fail(e);
    }
    await recordReviewedSession(reviewed, s.id).catch((e: Error) =>
      this.c.app.log.warn({ err: e.message }, 'reviewed session not recorded'),
    );
    this.session = s;
    s.stream.on('data', (d: Buffer | string) => this.write(typeof d === 'string' ? d : d.toString('utf8')));
    s.stream.on('end', () => {
      this.session = undefined;
      if (this.oneShot) return this.exit(0);
      this.write(sm(lang, 'ssh_session_end'));
      this.prompt();
    });
  }

  /**
   * The login-asset and connect-method rules; a review rule waits on its ticket. Answers the
   * approved ticket's id (or undefined: no review), false when not approved; throws a refusal.
   */
  private async rules(
    asset: GrantedAsset,
    account: PermedAccount,
    typed?: TypedLogin,
  ): Promise<string | false | undefined> {
    const { lang, user } = this.c;
    try {
      return await checkNativeAccess(this.c.app, {
        userId: user.id,
        assetId: asset.id,
        username: typed?.username ?? account.username,
        alias: account.alias,
        ip: this.c.remoteAddr,
        lang,
      });
    } catch (e) {
      if (!(e instanceof NativeReviewPending)) throw e;
      this.waiting = new AbortController();
      try {
        return (await waitForApproval(e, (x) => this.say(x), this.waiting.signal)) ? e.ticket.ticket_id : false;
      } finally {
        this.waiting = undefined;
      }
    }
  }

  /** The client went away: end the asset's session with it (and give up a ticket being waited on). */
  close(): void {
    this.waiting?.abort();
    this.session?.stream.end();
    this.session = undefined;
  }
}
