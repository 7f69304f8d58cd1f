import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../../http/errors.ts';
import { findVisible } from '../../../resource/routes.ts';
import { CHECK_MAX_FILES } from '../ansible/playbookCheck.ts';
import { ENTRY_FILE, playbookDir } from './playbookFiles.ts';
import { f, L } from '../../../resource/fields.ts';
import { PM, pm, type PlaybookMessage } from './playbookMessages.ts';
import { playbookResource } from './playbookResource.ts';
import { BadKey, countEntries, resolveKey, validName, workspaceTree, type Resolved } from './workspacePaths.ts';

/**
 * The playbook's file browser, `/api/v1/ops/playbook/<id>/file/` (contract §4.16): GET `?key=`
 * (a file's content) or `?expand=` (the tree), POST `{key, is_directory, content, name}` (a new file
 * or folder in the folder `key`), PATCH `{key, new_name, content, is_directory}` (rename and/or save),
 * DELETE `?key=`. The playbook is found as its detail route finds it (the caller's own, in the
 * current org); every key is confined to its folder (workspacePaths.ts). `main.yml` cannot be
 * renamed or deleted.
 */

export const FILE_URL = '/api/v1/ops/playbook/:id/file/';
const MAX_CONTENT = 8 * 1024 * 1024;

type Req = FastifyRequest<{ Params: { id: string }; Querystring: Record<string, string> }>;
type Body = Record<string, unknown>;

function bad(req: FastifyRequest, code: PlaybookMessage, params: Record<string, string> = {}): ApiError {
  return new ApiError(400, { error: pm(req.lang, code, params), detail: pm(req.lang, code, params) });
}

async function workspace(req: Req): Promise<{ root: string; name: string }> {
  const row = await findVisible(playbookResource, { req, db: req.db }, req.params.id);
  const root = playbookDir(req.server.deps.config.dataDir, String(row.id));
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  return { root, name: String(row.name) };
}

function resolve(req: FastifyRequest, root: string, key: unknown): Resolved {
  try {
    return resolveKey(root, key ?? '');
  } catch (e) {
    if (e instanceof BadKey) throw bad(req, 'key_invalid', { key: String(key) });
    throw e;
  }
}

function kind(abs: string): 'file' | 'dir' | undefined {
  try {
    const st = fs.lstatSync(abs);
    return st.isFile() ? 'file' : st.isDirectory() ? 'dir' : undefined;
  } catch {
    return undefined;
  }
}

function textOf(req: FastifyRequest, buf: Buffer): string {
  const text = buf.toString('utf8');
  return buf.includes(0) || text.includes('\uFFFD') ? pm(req.lang, 'unsupported_content') : text;
}

function content(req: FastifyRequest, v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  const s = String(v);
  if (Buffer.byteLength(s) > MAX_CONTENT)
    throw bad(req, 'content_too_large', { max: String(MAX_CONTENT / 1024 / 1024) });
  return s;
}

/**
 * What the GET answers, for its OPTIONS (`config.describe`, resource/routeMetadata.ts on main): one
 * entry of the tree. Kept in a variable so the route's config type checks before that lands.
 */
const FILE_DESCRIBE = {
  label: PM.model_playbook,
  orgScoped: true,
  fields: {
    id: f.string(PM.field_key, { readOnly: true, maxLength: 4096 }),
    name: f.string(L.name, { readOnly: true, maxLength: 255 }),
    pId: f.string(PM.field_parent, { readOnly: true, maxLength: 4096 }),
    isParent: f.bool(PM.field_is_directory, { readOnly: true }),
    content: f.text(PM.field_content),
  },
};
const viewConfig = { perm: 'ops.view_playbook', describe: FILE_DESCRIBE };

const truthy = (v: unknown) => v === true || v === 'true' || v === '1' || v === 1;

export function registerPlaybookFileRoutes(app: FastifyInstance): void {
  app.get<{ Params: { id: string }; Querystring: Record<string, string> }>(
    FILE_URL,
    { config: viewConfig },
    async (req) => {
      const ws = await workspace(req);
      const key = req.query.key ?? '';
      if (key && key !== 'root') {
        const r = resolve(req, ws.root, key);
        const k = kind(r.abs);
        if (!k) throw bad(req, 'not_found', { key: r.rel });
        if (k === 'dir') throw bad(req, 'is_directory', { key: r.rel });
        return { content: textOf(req, fs.readFileSync(r.abs)) };
      }
      const expand = req.query.expand ? resolve(req, ws.root, req.query.expand).rel : '';
      return workspaceTree(ws.root, ws.name, expand, ENTRY_FILE);
    },
  );

  app.post<{ Params: { id: string }; Querystring: Record<string, string> }>(
    FILE_URL,
    { config: { perm: 'ops.change_playbook' } },
    async (req) => {
      const ws = await workspace(req);
      const body = (req.body ?? {}) as Body;
      const parent = resolve(req, ws.root, body.key ?? '');
      if (kind(parent.abs) !== 'dir') throw bad(req, 'not_found', { key: parent.rel || 'root' });
      const isDir = truthy(body.is_directory);
      const given = typeof body.name === 'string' ? body.name.trim() : '';
      if (given && !validName(given)) throw bad(req, 'name_invalid', { name: given });
      const text = isDir ? undefined : (content(req, body.content) ?? '');
      if (countEntries(ws.root) + 1 > CHECK_MAX_FILES) throw bad(req, 'folder_full', { max: String(CHECK_MAX_FILES) });
      const base = given || (isDir ? 'new_dir' : 'new_file.yml');
      let name = base;
      for (let n = 1; fs.existsSync(path.join(parent.abs, name)); n++) name = `${base}(${n})`;
      const abs = path.join(parent.abs, name);
      if (isDir) fs.mkdirSync(abs, { mode: 0o700 });
      else fs.writeFileSync(abs, text!, { mode: 0o600, flag: 'wx' });
      const id = parent.rel ? `${parent.rel}/${name}` : name;
      return {
        name,
        title: name,
        id,
        isParent: isDir,
        pId: parent.rel || 'root',
        open: true,
        ...(isDir ? {} : { iconSkin: 'file' }),
      };
    },
  );

  app.patch<{ Params: { id: string }; Querystring: Record<string, string> }>(
    FILE_URL,
    { config: { perm: 'ops.change_playbook' } },
    async (req) => {
      const ws = await workspace(req);
      const body = (req.body ?? {}) as Body;
      const target = resolve(req, ws.root, body.key ?? '');
      if (!target.rel) throw bad(req, body.key ? 'root_locked' : 'key_required');
      const k = kind(target.abs);
      if (!k) throw bad(req, 'not_found', { key: target.rel });
      const newName = typeof body.new_name === 'string' ? body.new_name.trim() : '';
      const text = k === 'file' && !truthy(body.is_directory) ? content(req, body.content) : undefined;
      let at = target.abs;
      if (newName && newName !== path.basename(target.abs)) {
        if (target.rel === ENTRY_FILE) throw bad(req, 'entry_locked', { entry: ENTRY_FILE });
        if (!validName(newName)) throw bad(req, 'name_invalid', { name: newName });
        const dest = path.join(path.dirname(target.abs), newName);
        if (fs.existsSync(dest)) throw bad(req, 'exists', { key: newName });
        fs.renameSync(target.abs, dest);
        at = dest;
      }
      if (text !== undefined) fs.writeFileSync(at, text);
      return { msg: 'ok' };
    },
  );

  app.delete<{ Params: { id: string }; Querystring: Record<string, string> }>(
    FILE_URL,
    { config: { perm: 'ops.change_playbook' } },
    async (req) => {
      const ws = await workspace(req);
      const key = req.query.key ?? '';
      const target = resolve(req, ws.root, key);
      if (!target.rel) throw bad(req, key ? 'root_locked' : 'key_required');
      if (target.rel === ENTRY_FILE) throw bad(req, 'entry_locked', { entry: ENTRY_FILE });
      if (!kind(target.abs)) throw bad(req, 'not_found', { key: target.rel });
      fs.rmSync(target.abs, { recursive: true, force: true });
      return { msg: 'ok' };
    },
  );
}
