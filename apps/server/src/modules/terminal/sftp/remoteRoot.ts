import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import type { Language } from '@gatehouse/contract';
import type { SFTPWrapper } from 'ssh2';
import { ACTION_BITS, type ActionName } from '../../perms/actions.ts';
import type { ControlTarget } from '../gateway/control.ts';
import type { GatewayDeps } from '../gateway/gatewaySession.ts';
import { GatewayError } from '../gateway/gatewayError.ts';
import { openSsh, type SshLink } from '../gateway/sshConnect.ts';
import { resolveTarget, type TypedLogin } from '../gateway/sshTarget.ts';
import { FileKeeper } from './fileKeeper.ts';

/**
 * One asset account's SFTP root through the gateway, whatever front end uses it (the native SSH
 * server's SFTP subsystem, the web file manager): an ssh2 SFTP session on the asset (domain gateway
 * and host-key checks of `gateway/sshConnect.ts`), the root directory (`sftp_home` of the platform's
 * sftp protocol, default /tmp), the permission's actions, its `terminal_session` row (type and
 * protocol sftp) and the `audits_ftplog` rows of its operations. Paths given to it are relative to
 * the root; `resolve` refuses anything that would leave it, symlinks resolved on the asset.
 * It is a live-control target of the gateway's SessionRegistry (gateway/control.ts): a kill closes
 * it and emits `killed` (the front end then ends its client's side), a lock makes `usable()` throw
 * SessionLockedError until unlocked.
 */
export type FtpOperate = 'mkdir' | 'rmdir' | 'delete' | 'upload' | 'rename' | 'symlink' | 'download' | 'rename_dir';

export interface RemoteRootOptions {
  user: { id: string; name: string; username: string };
  assetId: string;
  accountId: string;
  /** The permission's action mask (perms/actions.ts). */
  actions: number;
  lang: Language;
  loginFrom: 'WT' | 'ST';
  remoteAddr: string;
  /** A virtual account's login (`accountId` is then its alias), e.g. `@USER` with the user's password. */
  typed?: TypedLogin;
}

export class PathEscapeError extends Error {}

/** An operation on a session an administrator paused (`tasks/toggle-lock-session/`). */
export class SessionLockedError extends Error {}

export const DEFAULT_SFTP_HOME = '/tmp';

async function sftpHome(deps: GatewayDeps, assetId: string): Promise<string> {
  const row = await deps.db
    .selectFrom('assets_asset as a')
    .innerJoin('assets_platformprotocol as pp', 'pp.platform_id', 'a.platform_id')
    .select('pp.setting')
    .where('a.id', '=', assetId)
    .where('pp.name', '=', 'sftp')
    .executeTakeFirst();
  try {
    const home = (JSON.parse(row?.setting ?? '{}') as { sftp_home?: unknown }).sftp_home;
    return typeof home === 'string' && home.startsWith('/') ? path.posix.normalize(home) : DEFAULT_SFTP_HOME;
  } catch {
    return DEFAULT_SFTP_HOME;
  }
}

function call<T>(f: (cb: (err: Error | null | undefined, v: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => f((err, v) => (err ? reject(err) : resolve(v))));
}

interface SessionFacts {
  id: string;
  started: string;
  display: { user: string; asset: string; account: string };
  orgId: string;
}

async function insertSession(
  deps: GatewayDeps,
  o: RemoteRootOptions,
  s: SessionFacts,
  ok: boolean,
  comment: string,
): Promise<void> {
  await deps.db
    .insertInto('terminal_session')
    .values({
      id: s.id,
      user: s.display.user,
      user_id: o.user.id,
      asset: s.display.asset,
      asset_id: o.assetId,
      account: s.display.account,
      account_id: o.accountId,
      protocol: 'sftp',
      type: 'sftp',
      login_from: o.loginFrom,
      remote_addr: o.remoteAddr,
      terminal_id: deps.terminalId,
      date_start: s.started,
      is_success: ok,
      is_finished: !ok,
      has_replay: false,
      has_command: false,
      is_locked: false,
      command_amount: 0,
      replay_path: '',
      date_end: ok ? null : new Date().toISOString(),
      comment,
      org_id: s.orgId,
    })
    .execute();
}

export class RemoteRoot extends EventEmitter implements ControlTarget {
  private ended = false;
  private locked = false;
  /** Ended by `tasks/kill-session/`. */
  killed = false;

  private constructor(
    private readonly deps: GatewayDeps,
    readonly o: RemoteRootOptions,
    private readonly s: SessionFacts,
    private link: SshLink | undefined,
    readonly sftp: SFTPWrapper,
    /** The root on the asset, symlinks resolved. */
    readonly home: string,
  ) {
    super();
  }

  get sessionId(): string {
    return this.s.id;
  }

  get id(): string {
    return this.s.id;
  }

  get isEnded(): boolean {
    return this.ended;
  }

  get isLocked(): boolean {
    return this.locked;
  }

  /** Throws SessionLockedError while an administrator holds the session paused. */
  usable(): void {
    if (this.locked) throw new SessionLockedError(this.s.id);
  }

  // --- live control (gateway/control.ts, from the bus on any instance) ---

  kill(_by: string): void {
    if (this.ended) return;
    this.killed = true;
    this.emit('killed');
    void this.close();
  }

  setLocked(locked: boolean, _by: string): void {
    if (!this.ended) this.locked = locked;
  }

  setWatched(_delta: number): void {
    // Nothing to watch: an SFTP session has no terminal output (its operations are ftp-log rows).
  }

  /** Connects to the asset and opens SFTP; a failure leaves a finished unsuccessful session row and throws. */
  static async open(deps: GatewayDeps, o: RemoteRootOptions): Promise<RemoteRoot> {
    const { db, secretBox } = deps;
    const s: SessionFacts = {
      id: randomUUID(),
      started: new Date().toISOString(),
      display: { user: `${o.user.name}(${o.user.username})`, asset: o.assetId, account: o.accountId },
      orgId: '',
    };
    let link: SshLink | undefined;
    try {
      const t = await resolveTarget(db, secretBox, o.lang, o.assetId, o.accountId, o.typed);
      Object.assign(s.display, t.display);
      s.orgId = t.orgId;
      // SFTP has no shell to `su` in: the files would be the login account's, not this one's.
      if (t.su) throw new GatewayError('sftp_su_unsupported', o.lang, { account: t.display.account });
      link = await openSsh(db, o.lang, t.target, t.gateway);
      const client = link.client;
      const sftp = await call<SFTPWrapper>((cb) => client.sftp(cb));
      const configured = await sftpHome(deps, o.assetId);
      const home = await call<string>((cb) => sftp.realpath(configured, cb)).catch(() => configured);
      const root = new RemoteRoot(deps, o, s, link, sftp, home);
      await insertSession(deps, o, s, true, '');
      deps.registry.add(root);
      client.on('close', () => void root.close());
      return root;
    } catch (e) {
      link?.end();
      if (!s.orgId) {
        const asset = await db
          .selectFrom('assets_asset')
          .select('org_id')
          .where('id', '=', o.assetId)
          .executeTakeFirst();
        s.orgId = asset?.org_id ?? '';
      }
      await insertSession(deps, o, s, false, (e as Error).message.slice(0, 1000));
      throw e;
    }
  }

  can(action: ActionName): boolean {
    return (this.o.actions & ACTION_BITS[action]) !== 0;
  }

  /**
   * The absolute path on the asset for a path relative to the root (`/`-separated; `..` cannot
   * climb above the root). The deepest existing part is resolved on the asset (symlinks) and must
   * stay inside the root, else PathEscapeError.
   */
  async resolve(rel: string): Promise<string> {
    const inside = path.posix.normalize(`/${rel}`);
    const abs = inside === '/' ? this.home : path.posix.join(this.home, inside);
    let probe = abs;
    for (;;) {
      const real = await call<string>((cb) => this.sftp.realpath(probe, cb)).catch(() => undefined);
      if (real !== undefined) {
        if (!this.contains(real)) throw new PathEscapeError(rel);
        return abs;
      }
      if (probe === this.home || probe === '/') return abs;
      probe = path.posix.dirname(probe);
    }
  }

  /** Whether an absolute path on the asset is the root or below it. */
  contains(abs: string): boolean {
    return abs === this.home || abs.startsWith(this.home === '/' ? '/' : `${this.home}/`);
  }

  /** Writes one ftp-log row; answers its id. */
  async log(operate: FtpOperate, filename: string, ok: boolean, hasFile = false, id = randomUUID()): Promise<string> {
    await this.deps.db
      .insertInto('audits_ftplog')
      .values({
        id,
        session_id: this.s.id,
        user: this.s.display.user,
        remote_addr: this.o.remoteAddr,
        asset: this.s.display.asset,
        account: this.s.display.account,
        operate,
        filename: filename.slice(0, 1024),
        is_success: ok,
        has_file: hasFile,
        date_start: new Date().toISOString(),
        org_id: this.s.orgId,
      })
      .execute();
    return id;
  }

  /** Keeps a copy of a transferred file when it stays under FTP_FILE_MAX_STORE (see fileKeeper.ts). */
  async keeper(): Promise<FileKeeper> {
    const mb = Number((await this.deps.settings.get('FTP_FILE_MAX_STORE')) ?? 0);
    return new FileKeeper(this.deps.dataDir, Math.max(0, mb) * 1024 * 1024);
  }

  /** Ends the asset's connection and finishes the session row (once). */
  async close(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.deps.registry.remove(this.s.id);
    this.link?.end();
    this.link = undefined;
    this.emit('end');
    await this.deps.db
      .updateTable('terminal_session')
      .set({ is_finished: true, date_end: new Date().toISOString(), is_locked: false })
      .where('id', '=', this.s.id)
      .execute()
      .catch(() => undefined);
  }
}
