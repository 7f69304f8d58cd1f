import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Language } from '@gatehouse/contract';
import ssh2 from 'ssh2';
import type { Attributes, FileEntry, SFTPWrapper } from 'ssh2';
import type { AuthUser } from '../../../http/context.ts';
import type { ActionName } from '../../perms/actions.ts';
import type { PermedAccount } from '../../perms/permedAccounts.ts';
import { gatewayOf } from '../gatewayInstance.ts';
import { GatewayError, tm } from '../gateway/gatewayError.ts';
import { connectableAccounts, grantedAssets } from '../ssh/sshTargets.ts';
import { checkNativeAccess, NativeAccessDenied, NativeReviewPending } from '../ssh/nativeAccessRules.ts';
import type { FileKeeper } from './fileKeeper.ts';
import { readInto, writeAt } from './assetIo.ts';
import { DATA_HEADER, dataPacket, SFTP_MAX_DATA, sendData } from './sftpWire.ts';
import {
  PathEscapeError,
  RemoteRoot,
  SessionLockedError,
  type FtpOperate,
  type RemoteRootOptions,
} from './remoteRoot.ts';

/**
 * The native SSH server's SFTP subsystem (`sftp -P 2222 user@gatehouse`, and `scp`, which speaks
 * SFTP): `/` lists the granted assets that have SSH or SFTP, `/<asset>` the accounts permed with
 * connect, and `/<asset>/<account>/...` is that account's SFTP root on the asset (remoteRoot.ts),
 * opened at first use and proxied request by request (reads and writes are passed on as they
 * come: nothing is buffered). Upload needs the `upload` action, download `download`, delete,
 * rmdir and rename `delete`, mkdir `upload`; a refusal answers PERMISSION_DENIED and is logged.
 * `@USER` logs in with the password the user signed in with (none with a key: left out); `@INPUT`
 * is left out, SFTP having no way to ask a username and password. A login-asset review rule
 * refuses the folder with the ticket's link (status message and stderr) until the ticket is
 * approved. A kill ends one folder's session: that folder answers "terminated" afterwards, the
 * others go on.
 */
const { STATUS_CODE, OPEN_MODE } = ssh2.utils.sftp;
const WRITE_FLAGS = OPEN_MODE.WRITE | OPEN_MODE.APPEND | OPEN_MODE.CREAT | OPEN_MODE.TRUNC;

interface Ctx {
  app: FastifyInstance;
  user: AuthUser;
  remoteAddr: string;
  lang: Language;
  /** The Gatehouse password of a password sign-in (memory only), for `@USER`. */
  password?: string;
}

/** A folder whose session an administrator killed: its operations fail from then on. */
class FolderKilledError extends GatewayError {}

type Handle =
  | { kind: 'vdir'; names: FileEntry[]; sent: boolean }
  | { kind: 'rdir'; root: RemoteRoot; remote: Buffer }
  | {
      kind: 'file';
      root: RemoteRoot;
      remote: Buffer;
      abs: string;
      operate: 'upload' | 'download';
      keeper: FileKeeper;
    };

/** A path split into the virtual part (asset, account) and the rest inside the account's root. */
interface Where {
  asset?: string;
  account?: string;
  rest: string;
}

function where(p: string): Where {
  const parts = path.posix
    .normalize(`/${p}`)
    .split('/')
    .filter((s) => s && s !== '.' && s !== '..');
  return { asset: parts[0], account: parts[1], rest: parts.slice(2).join('/') };
}

/** Folder names cannot hold `/`. */
const folderName = (s: string) => s.replace(/\//g, '_');

const DIR_MODE = 0o40755;
function dirAttrs(): Attributes {
  const now = Math.floor(Date.now() / 1000);
  return { mode: DIR_MODE, uid: 0, gid: 0, size: 0, atime: now, mtime: now };
}
function dirEntry(name: string): FileEntry {
  return { filename: name, longname: `drwxr-xr-x    1 0        0               0 ${name}`, attrs: dirAttrs() };
}

function statusOf(e: unknown): number {
  if (
    e instanceof PathEscapeError ||
    e instanceof SessionLockedError ||
    e instanceof NativeAccessDenied ||
    e instanceof NativeReviewPending
  )
    return STATUS_CODE.PERMISSION_DENIED;
  const code = (e as { code?: unknown }).code;
  return typeof code === 'number' ? code : STATUS_CODE.FAILURE;
}

/** The status message: ours are in the user's language; the asset's own errors are passed on as they are. */
function messageOf(e: unknown, lang: Language): string | undefined {
  if (e instanceof SessionLockedError) return tm(lang, 'sftp_session_locked');
  if (e instanceof GatewayError || e instanceof NativeReviewPending) return e.message;
  return undefined;
}

function call<T>(f: (cb: (err: Error | null | undefined, v: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => f((err, v) => (err ? reject(err) : resolve(v))));
}

export class SftpSubsystem {
  private readonly handles = new Map<number, Handle>();
  private readonly roots = new Map<string, Promise<RemoteRoot>>();
  /** Review tickets already told on stderr (a client retries a path several times). */
  private readonly told = new Set<string>();
  private nextHandle = 1;

  constructor(
    private readonly ctx: Ctx,
    private readonly sftp: SFTPWrapper,
  ) {
    this.bind();
  }

  /** Closes every asset connection (the SSH channel ended); a file still open was cut short. */
  async close(): Promise<void> {
    for (const h of this.handles.values()) if (h.kind === 'file') await this.finishFile(h, false);
    this.handles.clear();
    for (const r of this.roots.values()) await r.then((x) => x.close()).catch(() => undefined);
  }

  private async assets() {
    const { app, user } = this.ctx;
    const all = await grantedAssets(app, user.id);
    if (!all.length) return [];
    const withSsh = await app.deps.database.db
      .selectFrom('assets_protocol')
      .select('asset_id')
      .distinct()
      .where(
        'asset_id',
        'in',
        all.map((a) => a.id),
      )
      .where('name', 'in', ['ssh', 'sftp'])
      .execute();
    const ok = new Set(withSsh.map((r) => r.asset_id));
    return all.filter((a) => ok.has(a.id));
  }

  private async assetNamed(name: string) {
    return (await this.assets()).find((a) => folderName(a.name) === name);
  }

  private async accountsOf(assetId: string) {
    const all = await connectableAccounts(this.ctx.app, this.ctx.user.id, assetId);
    return all.filter((a) => a.real || (a.alias === '@USER' && this.ctx.password !== undefined));
  }

  /** A line on the client's stderr (OpenSSH's sftp and scp show it): SFTP statuses' texts are not shown. */
  private stderr(text: string): void {
    const ch = this.sftp as unknown as {
      _protocol: { channelExtData(id: number, data: Buffer, type: number): void };
      outgoing: { id: number; window: number; state: string };
    };
    const data = Buffer.from(text.endsWith('\n') ? text : `${text}\r\n`);
    // Extended data counts against the client's window like data: skipped when it has no room.
    if (ch.outgoing.state !== 'open' || ch.outgoing.window < data.length) return;
    ch.outgoing.window -= data.length;
    ch._protocol.channelExtData(ch.outgoing.id, data, 1);
  }

  private opened(account: PermedAccount): Pick<RemoteRootOptions, 'accountId' | 'typed'> {
    if (account.real) return { accountId: account.id };
    const typed = { name: account.name, username: this.ctx.user.username, password: this.ctx.password ?? '' };
    return { accountId: account.alias, typed };
  }

  /** The account's root for `/<asset>/<account>`, opened once; undefined when not granted. */
  private async root(w: Where): Promise<RemoteRoot | undefined> {
    const asset = w.asset ? await this.assetNamed(w.asset) : undefined;
    if (!asset || !w.account) return undefined;
    const account = (await this.accountsOf(asset.id)).find((a) => folderName(a.name) === w.account);
    if (!account) return undefined;
    const key = `${asset.id}:${account.real ? account.id : account.alias}`;
    let r = this.roots.get(key);
    if (!r) {
      const { user, remoteAddr, app, lang } = this.ctx;
      const rules = checkNativeAccess(app, {
        userId: user.id,
        assetId: asset.id,
        username: account.real ? account.username : user.username,
        alias: account.alias,
        ip: remoteAddr,
        lang,
      });
      r = rules.then(() =>
        RemoteRoot.open(gatewayOf(app).deps(), {
          user: { id: user.id, name: user.name, username: user.username },
          assetId: asset.id,
          ...this.opened(account),
          actions: account.actions,
          lang,
          loginFrom: 'ST',
          remoteAddr,
        }),
      );
      this.roots.set(key, r);
      r.then(
        // Killed by an administrator: this folder's session only; the client is told on stderr.
        (root) => root.once('killed', () => this.stderr(`/${w.asset}/${w.account}: ${tm(lang, 'session_killed')}`)),
        (e: unknown) => {
          this.roots.delete(key);
          if (e instanceof NativeReviewPending && !this.told.has(e.ticket.ticket_id)) {
            this.told.add(e.ticket.ticket_id);
            this.stderr(e.message);
          }
        },
      );
    }
    const root = await r;
    this.usable(root);
    return root;
  }

  /** Throws when the root cannot serve: killed, or paused by an administrator. */
  private usable(root: RemoteRoot): void {
    if (root.killed) throw new FolderKilledError('session_killed', this.ctx.lang);
    root.usable();
  }

  /** The virtual listing of `/` or `/<asset>`; undefined when the path is inside an account or unknown. */
  private async virtual(w: Where): Promise<FileEntry[] | undefined> {
    if (!w.asset) return (await this.assets()).map((a) => dirEntry(folderName(a.name)));
    if (w.account) return undefined;
    const asset = await this.assetNamed(w.asset);
    if (!asset) return undefined;
    return (await this.accountsOf(asset.id)).map((a) => dirEntry(folderName(a.name)));
  }

  private handle(reqid: number, h: Handle): void {
    const n = this.nextHandle++;
    this.handles.set(n, h);
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    this.sftp.handle(reqid, b);
  }

  private peek(b: Buffer): Handle | undefined {
    return b.length === 4 ? this.handles.get(b.readUInt32BE(0)) : undefined;
  }

  /** The handle of a request; throws SessionLockedError while its session is paused. */
  private take(b: Buffer): Handle | undefined {
    const h = this.peek(b);
    if (h && h.kind !== 'vdir') this.usable(h.root);
    return h;
  }

  /** Runs a request; an exception answers its SFTP status. */
  private on(event: string, fn: (reqid: number, ...args: never[]) => Promise<void>): void {
    this.sftp.on(
      event as 'OPEN',
      ((reqid: number, ...args: never[]) => {
        fn(reqid, ...args).catch((e: unknown) => this.sftp.status(reqid, statusOf(e), messageOf(e, this.ctx.lang)));
      }) as never,
    );
  }

  /** Inside an account's root: the root and the absolute remote path, else a status is answered. */
  private async inRoot(reqid: number, p: string): Promise<{ root: RemoteRoot; abs: string } | undefined> {
    const w = where(p);
    const root = w.account ? await this.root(w) : undefined;
    if (!root) {
      const virtual = await this.virtual(w);
      this.sftp.status(reqid, virtual ? STATUS_CODE.PERMISSION_DENIED : STATUS_CODE.NO_SUCH_FILE);
      return undefined;
    }
    return { root, abs: await root.resolve(w.rest) };
  }

  /** Checks the action; a refusal is logged and answered PERMISSION_DENIED. */
  private async allowed(
    reqid: number,
    root: RemoteRoot,
    action: ActionName,
    operate: FtpOperate,
    abs: string,
  ): Promise<boolean> {
    if (root.can(action)) return true;
    await root.log(operate, abs, false);
    this.sftp.status(reqid, STATUS_CODE.PERMISSION_DENIED);
    return false;
  }

  private async logged(root: RemoteRoot, operate: FtpOperate, abs: string, run: () => Promise<unknown>): Promise<void> {
    try {
      await run();
    } catch (e) {
      await root.log(operate, abs, false);
      throw e;
    }
    await root.log(operate, abs, true);
  }

  private async finishFile(h: Extract<Handle, { kind: 'file' }>, ok: boolean): Promise<void> {
    await call<undefined>((cb) => h.root.sftp.close(h.remote, (err) => cb(err, undefined))).catch(() => undefined);
    const kept = await h.keeper.finish();
    await h.root.log(h.operate, h.abs, ok, kept, h.keeper.logId);
  }

  private bind(): void {
    const s = this.sftp;
    this.on('REALPATH', async (reqid, p: string) => {
      const norm = path.posix.normalize(`/${p}`).replace(/(.)\/$/, '$1');
      s.name(reqid, [{ filename: norm, longname: norm, attrs: {} as Attributes }]);
    });
    const stat = (kind: 'stat' | 'lstat') => async (reqid: number, p: string) => {
      const w = where(p);
      if (!w.account) {
        const v = await this.virtual(w);
        return v ? s.attrs(reqid, dirAttrs()) : s.status(reqid, STATUS_CODE.NO_SUCH_FILE);
      }
      const r = await this.inRoot(reqid, p);
      if (r) s.attrs(reqid, await call<Attributes>((cb) => r.root.sftp[kind](r.abs, cb)));
    };
    this.on('STAT', stat('stat'));
    this.on('LSTAT', stat('lstat'));
    this.on('OPENDIR', async (reqid, p: string) => {
      const w = where(p);
      if (!w.account) {
        const names = await this.virtual(w);
        return names ? this.handle(reqid, { kind: 'vdir', names, sent: false }) : s.status(reqid, 2);
      }
      const r = await this.inRoot(reqid, p);
      if (r)
        this.handle(reqid, { kind: 'rdir', root: r.root, remote: await call((cb) => r.root.sftp.opendir(r.abs, cb)) });
    });
    this.on('READDIR', async (reqid, b: Buffer) => {
      const h = this.take(b);
      if (h?.kind === 'vdir') {
        if (h.sent) return s.status(reqid, STATUS_CODE.EOF);
        h.sent = true;
        return h.names.length ? s.name(reqid, h.names) : s.status(reqid, STATUS_CODE.EOF);
      }
      if (h?.kind !== 'rdir') return s.status(reqid, STATUS_CODE.FAILURE);
      const list = await call<FileEntry[]>((cb) => h.root.sftp.readdir(h.remote, cb));
      s.name(reqid, list);
    });
    this.on('OPEN', async (reqid, p: string, flags: number, attrs: Attributes) => {
      const r = await this.inRoot(reqid, p);
      if (!r) return;
      const upload = (flags & WRITE_FLAGS) !== 0;
      const operate = upload ? 'upload' : 'download';
      if (!(await this.allowed(reqid, r.root, operate, operate, r.abs))) return;
      let remote: Buffer;
      try {
        remote = await call<Buffer>((cb) => r.root.sftp.open(r.abs, flags, attrs, cb));
      } catch (e) {
        await r.root.log(operate, r.abs, false);
        throw e;
      }
      this.handle(reqid, { kind: 'file', root: r.root, remote, abs: r.abs, operate, keeper: await r.root.keeper() });
    });
    this.on('READ', async (reqid, b: Buffer, offset: number, len: number) => {
      const h = this.take(b);
      if (h?.kind !== 'file') return s.status(reqid, STATUS_CODE.FAILURE);
      // A longer READ is answered short, as OpenSSH's sftp-server does (the client asks for the rest).
      const want = Math.min(len, SFTP_MAX_DATA);
      const packet = dataPacket(want);
      const n = await readInto(h.root.sftp, h.remote, packet, DATA_HEADER, want, offset);
      if (!n) return s.status(reqid, STATUS_CODE.EOF);
      if (h.operate === 'download') h.keeper.add(offset, packet.subarray(DATA_HEADER, DATA_HEADER + n));
      sendData(s, reqid, packet, n);
    });
    this.on('WRITE', async (reqid, b: Buffer, offset: number, data: Buffer) => {
      const h = this.take(b);
      if (h?.kind !== 'file' || h.operate !== 'upload') return s.status(reqid, STATUS_CODE.PERMISSION_DENIED);
      h.keeper.add(offset, data);
      await writeAt(h.root.sftp, h.remote, data, offset);
      s.status(reqid, STATUS_CODE.OK);
    });
    this.on('FSTAT', async (reqid, b: Buffer) => {
      const h = this.take(b);
      if (h?.kind !== 'file') return s.status(reqid, STATUS_CODE.FAILURE);
      s.attrs(reqid, await call<Attributes>((cb) => h.root.sftp.fstat(h.remote, cb)));
    });
    this.on('FSETSTAT', async (reqid, b: Buffer, attrs: Attributes) => {
      const h = this.take(b);
      if (h?.kind !== 'file' || h.operate !== 'upload') return s.status(reqid, STATUS_CODE.PERMISSION_DENIED);
      await call<undefined>((cb) => h.root.sftp.fsetstat(h.remote, attrs, (err) => cb(err, undefined)));
      s.status(reqid, STATUS_CODE.OK);
    });
    this.on('SETSTAT', async (reqid, p: string, attrs: Attributes) => {
      const r = await this.inRoot(reqid, p);
      if (!r) return;
      if (!r.root.can('upload')) return s.status(reqid, STATUS_CODE.PERMISSION_DENIED);
      await call<undefined>((cb) => r.root.sftp.setstat(r.abs, attrs, (err) => cb(err, undefined)));
      s.status(reqid, STATUS_CODE.OK);
    });
    this.on('CLOSE', async (reqid, b: Buffer) => {
      const h = this.peek(b);
      if (!h) return s.status(reqid, STATUS_CODE.FAILURE);
      this.handles.delete(b.readUInt32BE(0));
      if (h.kind === 'rdir') await call<undefined>((cb) => h.root.sftp.close(h.remote, (err) => cb(err, undefined)));
      if (h.kind === 'file') await this.finishFile(h, true);
      s.status(reqid, STATUS_CODE.OK);
    });
    const change =
      (
        action: ActionName,
        operate: FtpOperate,
        run: (sftp: SFTPWrapper, abs: string, cb: (e?: Error | null) => void) => void,
      ) =>
      async (reqid: number, p: string) => {
        const r = await this.inRoot(reqid, p);
        if (!r || !(await this.allowed(reqid, r.root, action, operate, r.abs))) return;
        await this.logged(r.root, operate, r.abs, () =>
          call<undefined>((cb) => run(r.root.sftp, r.abs, (err) => cb(err, undefined))),
        );
        s.status(reqid, STATUS_CODE.OK);
      };
    this.on(
      'MKDIR',
      change('upload', 'mkdir', (sftp, abs, cb) => sftp.mkdir(abs, cb)),
    );
    this.on(
      'RMDIR',
      change('delete', 'rmdir', (sftp, abs, cb) => sftp.rmdir(abs, cb)),
    );
    this.on(
      'REMOVE',
      change('delete', 'delete', (sftp, abs, cb) => sftp.unlink(abs, cb)),
    );
    this.on('RENAME', async (reqid, from: string, to: string) => {
      const a = await this.inRoot(reqid, from);
      if (!a) return;
      const b = await this.inRoot(reqid, to);
      if (!b) return;
      if (a.root !== b.root) return s.status(reqid, STATUS_CODE.OP_UNSUPPORTED);
      const isDir = await call<Attributes>((cb) => a.root.sftp.lstat(a.abs, cb))
        .then((st) => (st.mode & 0o170000) === 0o040000)
        .catch(() => false);
      const operate = isDir ? 'rename_dir' : 'rename';
      const label = `${a.abs} => ${b.abs}`;
      if (!(await this.allowed(reqid, a.root, 'delete', operate, label))) return;
      await this.logged(a.root, operate, label, () =>
        call<undefined>((cb) => a.root.sftp.rename(a.abs, b.abs, (err) => cb(err, undefined))),
      );
      s.status(reqid, STATUS_CODE.OK);
    });
    this.on('SYMLINK', async (reqid, link: string) => {
      // A link could point out of the root: refused, and logged.
      const r = await this.inRoot(reqid, link);
      if (!r) return;
      await r.root.log('symlink', r.abs, false);
      s.status(reqid, STATUS_CODE.PERMISSION_DENIED);
    });
    this.on('READLINK', async (reqid) => s.status(reqid, STATUS_CODE.OP_UNSUPPORTED));
  }
}
