import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../../http/errors.ts';
import { ENTRY_FILE, BLANK_ENTRY, playbookDir, playbooksRoot, stagingDir } from './playbookFiles.ts';
import { pm } from './playbookMessages.ts';
import { readZip, writeEntries, ZipRefusal } from './zipReader.ts';

/**
 * The files side of creating a playbook (`POST ops/playbooks/`): a multipart upload (the zip in
 * field `path`, other fields beside it) is read and unpacked into a staging folder *before* the
 * row is validated; the resource's hooks then move it into place (or write a blank `main.yml`)
 * inside the create's transaction. Whatever fails, `onResponse` removes the staging folder and, on
 * an error answer, the playbook's folder: a failed create leaves no row and no folder.
 */

export const UPLOAD_MAX_BYTES = 20 * 1024 * 1024;
const MB = 1024 * 1024;

interface PendingCreate {
  staging?: string;
  fileName?: string;
  created?: string;
}

const pending = new WeakMap<FastifyRequest, PendingCreate>();

function refuse(req: FastifyRequest, e: ZipRefusal): ApiError {
  return new ApiError(400, { path: [pm(req.lang, e.code, e.params)] });
}

/** Reads a multipart create into `req.body` (fields) and a staging folder (the zip's files). */
export async function readUpload(req: FastifyRequest, dataDir: string): Promise<void> {
  if (!req.isMultipart()) return;
  const fields: Record<string, string> = {};
  let zip: Buffer | undefined;
  let fileName = '';
  try {
    for await (const part of req.parts({ limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 20 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'path') {
          part.file.resume();
          continue;
        }
        fileName = path.basename(part.filename || '');
        zip = await part.toBuffer();
      } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
    }
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new ApiError(400, { path: [pm(req.lang, 'upload_too_large', { max: String(UPLOAD_MAX_BYTES / MB) })] });
    throw new ApiError(400, { path: [pm(req.lang, 'upload_not_zip', { detail: (e as Error).message })] });
  }
  if (!zip) throw new ApiError(400, { path: [pm(req.lang, 'upload_field')] });
  let entries;
  try {
    entries = readZip(zip);
  } catch (e) {
    if (e instanceof ZipRefusal) throw refuse(req, e);
    throw e;
  }
  const state: PendingCreate = { fileName, staging: stagingDir(dataDir, randomUUID()) };
  pending.set(req, state);
  try {
    writeEntries(state.staging!, entries);
  } catch (e) {
    if (e instanceof ZipRefusal) throw refuse(req, e);
    throw new ApiError(400, { path: [pm(req.lang, 'upload_not_zip', { detail: (e as Error).message })] });
  }
  const name = fields.name?.trim() || fileName.replace(/\.zip$/i, '');
  req.body = { ...fields, ...(name ? { name } : {}) };
}

/** The uploaded file's name ('' for a blank playbook), stored as `path`. */
export function uploadedFileName(req: FastifyRequest): string {
  return pending.get(req)?.fileName ?? '';
}

/** Puts the playbook's files in place: the staged upload, or a blank `main.yml`. */
export function placeFiles(req: FastifyRequest, dataDir: string, id: string): void {
  const dir = playbookDir(dataDir, id);
  const state = pending.get(req) ?? {};
  pending.set(req, state);
  fs.mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
  if (state.staging) {
    fs.renameSync(state.staging, dir);
    state.staging = undefined;
  } else {
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.writeFileSync(path.join(dir, ENTRY_FILE), BLANK_ENTRY, { mode: 0o600 });
  }
  state.created = dir;
}

/** Staging folders an interrupted upload left (older than an hour: none is in use), removed at start-up. */
export function sweepStaging(dataDir: string, now = Date.now()): number {
  const root = playbooksRoot(dataDir);
  if (!fs.existsSync(root)) return 0;
  let n = 0;
  for (const name of fs.readdirSync(root)) {
    if (!name.startsWith('.staging-')) continue;
    const dir = path.join(root, name);
    if (now - fs.lstatSync(dir).mtimeMs < 3600_000) continue;
    fs.rmSync(dir, { recursive: true, force: true });
    n++;
  }
  return n;
}

/** Cleans up after every create: the staging folder always, the new folder when the answer is an error. */
export function registerUploadCleanup(app: FastifyInstance): void {
  app.addHook('onReady', async () => {
    const n = sweepStaging(app.deps.config.dataDir);
    if (n) app.log.info(`removed ${n} playbook upload staging folder(s) left by interrupted uploads`);
  });
  app.addHook('onResponse', async (req, reply) => {
    const state = pending.get(req);
    if (!state) return;
    pending.delete(req);
    if (state.staging) fs.rmSync(state.staging, { recursive: true, force: true });
    if (state.created && reply.statusCode >= 300) fs.rmSync(state.created, { recursive: true, force: true });
  });
}
