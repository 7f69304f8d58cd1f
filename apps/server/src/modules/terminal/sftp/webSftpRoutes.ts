import path from 'node:path';
import { PassThrough, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Attributes, FileEntry } from 'ssh2';
import { LOGIN_PATH } from '@gatehouse/contract';
import { sendConsolePage } from '../../../http/console.ts';
import { ApiError } from '../../../http/errors.ts';
import { actionNames, type ActionName } from '../../perms/actions.ts';
import { gatewayOf } from '../gatewayInstance.ts';
import { GatewayError, tm, type TerminalMessageKey } from '../gateway/gatewayError.ts';
import { spendToken } from '../tokens/tokenSpend.ts';
import type { FileKeeper } from './fileKeeper.ts';
import { PathEscapeError, RemoteRoot, type FtpOperate } from './remoteRoot.ts';
import { addWebSftp, closeWebSftp, registerWebSftpSessions, webSftpLimits, webSftpOf } from './webSftpSessions.ts';

/**
 * The web file manager's API (`/koko/elfinder/sftp/api/`), for the signed-in user only (session
 * cookie; every POST needs the CSRF header like the console's API, http/identify.ts):
 * - `POST open/` `{token}`: spends the user's own connection token (connect method `web_sftp`),
 *   opens one SFTP session (row type sftp, login_from WT) → `{id, asset, account, actions, home}`;
 * - on `<id>/`: `GET list/?path=`, `GET download/?path=` (streamed), `POST upload/?path=<dir>`
 *   (multipart, streamed, at most UPLOAD_MAX bytes), `POST mkdir/ {path}`, `POST rename/ {from,
 *   to}`, `POST delete/ {path}`, `POST close/`.
 * Paths are relative to the account's SFTP root (remoteRoot.ts: no way out); each operation is
 * checked against the token's actions and writes an ftp-log row.
 */
export const WEB_SFTP_API = '/koko/elfinder/sftp/api/';
export const UPLOAD_MAX = 1024 * 1024 * 1024;

type Req = FastifyRequest<{
  Params: { id: string };
  Querystring: { path?: string };
  Body: Record<string, unknown> | undefined;
}>;

function fail(status: number, req: FastifyRequest, key: TerminalMessageKey, params?: Record<string, string>): ApiError {
  return new ApiError(status, { detail: tm(req.lang, key, params), code: key });
}

function userOf(req: FastifyRequest): string {
  if (!req.user) throw fail(401, req, 'web_sftp_signin');
  return req.user.id;
}

function rootOf(req: Req): RemoteRoot {
  const root = webSftpOf(req.server, req.params.id, userOf(req));
  if (!root) throw fail(404, req, 'web_sftp_not_found');
  if (root.killed) throw fail(410, req, 'session_killed');
  if (root.isEnded) throw fail(404, req, 'web_sftp_not_found');
  if (root.isLocked) throw fail(423, req, 'sftp_session_locked');
  return root;
}

function text(req: FastifyRequest, v: unknown): string {
  if (typeof v !== 'string' || v.length > 4096 || v.includes('\0')) throw fail(400, req, 'sftp_bad_path');
  return v;
}

async function resolve(req: FastifyRequest, root: RemoteRoot, rel: string): Promise<string> {
  try {
    return await root.resolve(rel);
  } catch (e) {
    if (e instanceof PathEscapeError) throw fail(403, req, 'sftp_path_outside');
    throw e;
  }
}

async function allow(req: FastifyRequest, root: RemoteRoot, action: ActionName, op: FtpOperate, name: string) {
  if (root.can(action)) return;
  await root.log(op, name, false);
  throw fail(403, req, 'sftp_action_denied', { action });
}

/** Runs one remote operation, logs it, and turns an SFTP failure into a 400 with its message. */
async function logged<T>(req: FastifyRequest, root: RemoteRoot, op: FtpOperate, name: string, run: () => Promise<T>) {
  try {
    const v = await run();
    await root.log(op, name, true);
    return v;
  } catch (e) {
    await root.log(op, name, false);
    throw fail(400, req, 'sftp_failed', { error: (e as Error).message });
  }
}

function call<T>(f: (cb: (err: Error | null | undefined, v: T) => void) => void): Promise<T> {
  return new Promise((res, rej) => f((err, v) => (err ? rej(err) : res(v))));
}
const done = (f: (cb: (err?: Error | null) => void) => void) => call<undefined>((cb) => f((err) => cb(err, undefined)));

const isDir = (a: Attributes) => (a.mode & 0o170000) === 0o040000;
const isLink = (a: Attributes) => (a.mode & 0o170000) === 0o120000;

/** Copies what passes into the kept file (fileKeeper.ts), at its offset. */
function keeping(keeper: FileKeeper): Transform {
  let pos = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      keeper.add(pos, chunk);
      pos += chunk.length;
      cb(null, chunk);
    },
  });
}

function fileName(req: FastifyRequest, raw: string): string {
  const name = path.posix.basename(raw.replace(/\\/g, '/'));
  if (!name || name === '.' || name === '..' || name.length > 255) throw fail(400, req, 'sftp_bad_path');
  return name;
}

async function open(req: Req) {
  const userId = userOf(req);
  const token = text(req, req.body?.token);
  const spent = await spendToken(req, token);
  if (!spent || spent.token.userId !== userId) throw fail(404, req, 'token_not_found');
  if (spent.token.connectMethod !== 'web_sftp') throw fail(400, req, 'web_sftp_method');
  if (!spent.account.real) throw fail(400, req, 'token_account_unsupported');
  let root: RemoteRoot;
  try {
    root = await RemoteRoot.open(gatewayOf(req.server).deps(), {
      user: spent.user,
      assetId: spent.asset.id,
      accountId: spent.account.id,
      actions: spent.account.actions,
      lang: req.lang,
      loginFrom: 'WT',
      remoteAddr: req.ip,
    });
  } catch (e) {
    throw new ApiError(400, { detail: (e as Error).message, code: e instanceof GatewayError ? e.code : 'sftp_failed' });
  }
  return {
    id: addWebSftp(req.server, userId, root, await webSftpLimits(gatewayOf(req.server).deps().settings)),
    asset: { id: spent.asset.id, name: spent.asset.name },
    account: { id: spent.account.id, name: spent.account.name, username: spent.account.username },
    actions: actionNames(spent.account.actions),
    home: root.home,
  };
}

async function list(req: Req) {
  const root = rootOf(req);
  const rel = text(req, req.query.path ?? '/');
  const abs = await resolve(req, root, rel);
  let entries: FileEntry[];
  try {
    entries = await call<FileEntry[]>((cb) => root.sftp.readdir(abs, cb));
  } catch (e) {
    throw fail(400, req, 'sftp_failed', { error: (e as Error).message });
  }
  return {
    path: path.posix.normalize(`/${rel}`),
    entries: entries
      .map((e) => ({
        name: e.filename,
        size: e.attrs.size,
        mtime: e.attrs.mtime,
        type: isDir(e.attrs) ? 'dir' : isLink(e.attrs) ? 'link' : 'file',
      }))
      .sort((a, b) =>
        (a.type === 'dir') === (b.type === 'dir') ? a.name.localeCompare(b.name) : a.type === 'dir' ? -1 : 1,
      ),
  };
}

async function download(req: Req, reply: FastifyReply) {
  const root = rootOf(req);
  const abs = await resolve(req, root, text(req, req.query.path));
  await allow(req, root, 'download', 'download', abs);
  const st = await call<Attributes>((cb) => root.sftp.stat(abs, cb)).catch(() => undefined);
  if (!st || isDir(st)) {
    await root.log('download', abs, false);
    throw fail(400, req, 'sftp_failed', { error: 'not a file' });
  }
  const keeper = await root.keeper();
  const out = new PassThrough();
  void pipeline(root.sftp.createReadStream(abs), keeping(keeper), out)
    .then(
      () => true,
      () => false,
    )
    .then(async (ok) => {
      const kept = await keeper.finish();
      await root.log('download', abs, ok, ok && kept, keeper.logId);
    })
    .catch(() => undefined);
  const name = path.posix.basename(abs);
  return reply
    .header('Content-Type', 'application/octet-stream')
    .header('Content-Length', String(st.size))
    .header(
      'Content-Disposition',
      `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    )
    .send(out);
}

/**
 * The koko preference `basic.file_name_conflict_resolution` (contract preferences.ts): `replace`
 * (default) overwrites a file of the same name, `suffix` uploads as `<name>_1<.ext>`, `_2`...
 */
async function conflictFree(req: FastifyRequest, root: RemoteRoot, abs: string): Promise<string> {
  const pref = await req.db
    .selectFrom('users_preference')
    .select('value')
    .where('user_id', '=', req.user!.id)
    .where('category', '=', 'koko')
    .where('name', '=', 'file_name_conflict_resolution')
    .executeTakeFirst();
  if (pref?.value !== JSON.stringify('suffix')) return abs;
  const exists = (p: string) =>
    call<Attributes>((cb) => root.sftp.lstat(p, cb)).then(
      () => true,
      () => false,
    );
  if (!(await exists(abs))) return abs;
  const ext = path.posix.extname(abs);
  const stem = abs.slice(0, abs.length - ext.length);
  for (let i = 1; i < 1000; i++) if (!(await exists(`${stem}_${i}${ext}`))) return `${stem}_${i}${ext}`;
  return abs;
}

async function upload(req: Req) {
  const root = rootOf(req);
  const dir = await resolve(req, root, text(req, req.query.path ?? '/'));
  if (!req.isMultipart()) throw fail(400, req, 'sftp_bad_upload');
  const part = await req.file({ limits: { fileSize: UPLOAD_MAX, files: 1 } });
  if (!part) throw fail(400, req, 'sftp_bad_upload');
  const wanted = path.posix.join(dir, fileName(req, part.filename));
  if (!root.contains(wanted)) throw fail(403, req, 'sftp_path_outside');
  const abs = await conflictFree(req, root, wanted);
  if (!root.can('upload')) {
    part.file.resume();
    await allow(req, root, 'upload', 'upload', abs);
  }
  const keeper = await root.keeper();
  try {
    await pipeline(part.file, keeping(keeper), root.sftp.createWriteStream(abs));
    if (part.file.truncated) throw new Error('too large');
  } catch (e) {
    await keeper.finish();
    await root.log('upload', abs, false, false, keeper.logId);
    if (part.file.truncated) {
      await done((cb) => root.sftp.unlink(abs, cb)).catch(() => undefined);
      throw fail(413, req, 'sftp_upload_too_large', { max: String(UPLOAD_MAX / 1024 / 1024) });
    }
    throw fail(400, req, 'sftp_failed', { error: (e as Error).message });
  }
  await root.log('upload', abs, true, await keeper.finish(), keeper.logId);
  return { name: path.posix.basename(abs) };
}

async function mkdir(req: Req) {
  const root = rootOf(req);
  const abs = await resolve(req, root, text(req, req.body?.path));
  await allow(req, root, 'upload', 'mkdir', abs);
  await logged(req, root, 'mkdir', abs, () => done((cb) => root.sftp.mkdir(abs, cb)));
  return { ok: true };
}

async function rename(req: Req) {
  const root = rootOf(req);
  const from = await resolve(req, root, text(req, req.body?.from));
  const to = await resolve(req, root, text(req, req.body?.to));
  if (from === root.home) throw fail(403, req, 'sftp_path_outside');
  const st = await call<Attributes>((cb) => root.sftp.lstat(from, cb)).catch(() => undefined);
  const op = st && isDir(st) ? 'rename_dir' : 'rename';
  const name = `${from} => ${to}`;
  await allow(req, root, 'delete', op, name);
  await logged(req, root, op, name, () => done((cb) => root.sftp.rename(from, to, cb)));
  return { ok: true };
}

async function remove(req: Req) {
  const root = rootOf(req);
  const abs = await resolve(req, root, text(req, req.body?.path));
  if (abs === root.home) throw fail(403, req, 'sftp_path_outside');
  const st = await call<Attributes>((cb) => root.sftp.lstat(abs, cb)).catch(() => undefined);
  const op = st && isDir(st) ? 'rmdir' : 'delete';
  await allow(req, root, 'delete', op, abs);
  await logged(req, root, op, abs, () =>
    done((cb) => (op === 'rmdir' ? root.sftp.rmdir(abs, cb) : root.sftp.unlink(abs, cb))),
  );
  return { ok: true };
}

/** The page (filemanager.html) for signed-in users; anyone else goes to the login page and comes back. */
async function page(req: FastifyRequest, reply: FastifyReply) {
  if (!req.user) return reply.redirect(`${LOGIN_PATH}?next=${encodeURIComponent(req.url)}`);
  return sendConsolePage(req, reply, 'filemanager.html');
}

export function registerWebSftpRoutes(app: FastifyInstance): void {
  registerWebSftpSessions(app);
  app.get('/koko/elfinder/sftp/', page);
  app.get('/koko/elfinder/sftp/*', page);
  const b = WEB_SFTP_API;
  app.post(`${b}open/`, open);
  app.get(`${b}:id/list/`, list);
  app.get(`${b}:id/download/`, download);
  app.post(`${b}:id/upload/`, upload);
  app.post(`${b}:id/mkdir/`, mkdir);
  app.post(`${b}:id/rename/`, rename);
  app.post(`${b}:id/delete/`, remove);
  app.post(`${b}:id/close/`, async (req: Req) => {
    if (!webSftpOf(req.server, req.params.id, userOf(req))) throw fail(404, req, 'web_sftp_not_found');
    await closeWebSftp(req.server, req.params.id);
    return { ok: true };
  });
}
