import fs from 'node:fs';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import type { PlaybookMessage } from './playbookMessages.ts';

/**
 * Unpacks an uploaded playbook zip, refusing before anything is written: more than `entries`
 * entries, an entry whose declared size is over `entryBytes` (a 1 GB entry is refused by its
 * header, without inflating it), an entry that inflates past its limit or the total budget
 * whatever its header says (zlib stops at `maxOutputLength`: zip bombs stay bounded), paths
 * that are absolute, hold `..` or a backslash, symbolic links, encryption, methods other than
 * stored and deflate, duplicates. A zip whose files all sit in one top folder (as `zip -r x.zip x`
 * makes) is unpacked without that folder, when the entry file is not already at the top.
 */

export interface ZipLimits {
  entries: number;
  entryBytes: number;
  totalBytes: number;
}

export const ZIP_LIMITS: ZipLimits = { entries: 1000, entryBytes: 10 * 1024 * 1024, totalBytes: 50 * 1024 * 1024 };

export class ZipRefusal extends Error {
  constructor(
    readonly code: PlaybookMessage,
    readonly params: Record<string, string> = {},
  ) {
    super(code);
  }
}

export interface ZipEntry {
  /** Normalised relative path, `/`-separated. */
  name: string;
  dir: boolean;
  data: Buffer;
}

const MB = 1024 * 1024;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

function findEocd(buf: Buffer): number {
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--)
    if (buf.readUInt32LE(i) === 0x06054b50) return i;
  throw new ZipRefusal('upload_not_zip', { detail: 'no end of central directory' });
}

/** The entry's path, normalised; refused when it could land outside the folder. */
export function safeEntryName(raw: string): string {
  if (!raw || raw.includes('\\') || raw.includes('\0') || raw.startsWith('/') || /^[A-Za-z]:/.test(raw))
    throw new ZipRefusal('zip_bad_path', { name: raw });
  const parts = raw.split('/').filter((p) => p !== '' && p !== '.');
  if (!parts.length || parts.includes('..')) throw new ZipRefusal('zip_bad_path', { name: raw });
  return parts.join('/');
}

function inflate(data: Buffer, limit: number, name: string, total: boolean, limits: ZipLimits): Buffer {
  try {
    return inflateRawSync(data, { maxOutputLength: limit + 1 });
  } catch (e) {
    if (e instanceof RangeError || (e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw total
        ? new ZipRefusal('zip_total_too_large', { max: String(limits.totalBytes / MB) })
        : new ZipRefusal('zip_entry_too_large', { name, max: String(limits.entryBytes / MB) });
    throw new ZipRefusal('upload_not_zip', { detail: `${name}: ${(e as Error).message}` });
  }
}

/** Reads and checks every entry of `buf`; throws ZipRefusal for the first problem. */
export function readZip(buf: Buffer, limits: ZipLimits = ZIP_LIMITS): ZipEntry[] {
  if (buf.length < 22) throw new ZipRefusal('upload_not_zip', { detail: 'too short' });
  const eocd = findEocd(buf);
  const count = buf.readUInt16LE(eocd + 10);
  if (count > limits.entries) throw new ZipRefusal('zip_too_many', { max: String(limits.entries) });
  let p = buf.readUInt32LE(eocd + 16);
  let left = limits.totalBytes;
  const seen = new Set<string>();
  const out: ZipEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50)
      throw new ZipRefusal('upload_not_zip', { detail: 'bad central directory' });
    const madeBy = buf.readUInt16LE(p + 4) >> 8;
    const flags = buf.readUInt16LE(p + 8);
    const method = buf.readUInt16LE(p + 10);
    const compressed = buf.readUInt32LE(p + 20);
    const declared = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const external = buf.readUInt32LE(p + 38);
    const local = buf.readUInt32LE(p + 42);
    const raw = buf.subarray(p + 46, p + 46 + nameLen).toString(flags & 0x800 ? 'utf8' : 'latin1');
    p += 46 + nameLen + extraLen + commentLen;
    const mode = madeBy === 3 ? external >>> 16 : 0;
    const type = mode & S_IFMT;
    if (type === S_IFLNK) throw new ZipRefusal('zip_symlink', { name: raw });
    if (type && type !== S_IFREG && type !== S_IFDIR) throw new ZipRefusal('zip_symlink', { name: raw });
    const name = safeEntryName(raw);
    const dir = raw.endsWith('/') || type === S_IFDIR;
    if (seen.has(name)) throw new ZipRefusal('zip_duplicate', { name });
    seen.add(name);
    if (dir) {
      out.push({ name, dir, data: Buffer.alloc(0) });
      continue;
    }
    if (flags & 0x1 || (method !== 0 && method !== 8)) throw new ZipRefusal('zip_unsupported', { name });
    if (declared > limits.entryBytes)
      throw new ZipRefusal('zip_entry_too_large', { name, max: String(limits.entryBytes / MB) });
    if (declared > left) throw new ZipRefusal('zip_total_too_large', { max: String(limits.totalBytes / MB) });
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50)
      throw new ZipRefusal('upload_not_zip', { detail: `${name}: bad local header` });
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    if (start + compressed > buf.length) throw new ZipRefusal('upload_not_zip', { detail: `${name}: truncated` });
    const stored = buf.subarray(start, start + compressed);
    const entryLimit = Math.min(limits.entryBytes, left);
    const data = method === 0 ? stored : inflate(stored, entryLimit, name, left < limits.entryBytes, limits);
    if (data.length > entryLimit)
      throw left < limits.entryBytes
        ? new ZipRefusal('zip_total_too_large', { max: String(limits.totalBytes / MB) })
        : new ZipRefusal('zip_entry_too_large', { name, max: String(limits.entryBytes / MB) });
    left -= data.length;
    out.push({ name, dir, data });
  }
  return stripTopFolder(out);
}

function stripTopFolder(entries: ZipEntry[], entry = 'main.yml'): ZipEntry[] {
  if (entries.some((e) => e.name === entry && !e.dir)) return entries;
  const tops = new Set(entries.map((e) => e.name.split('/')[0]));
  if (tops.size !== 1) return entries;
  const [top] = [...tops];
  if (!entries.some((e) => e.name === `${top}/${entry}`)) return entries;
  return entries.filter((e) => e.name !== top).map((e) => ({ ...e, name: e.name.slice(top!.length + 1) }));
}

/** Writes the entries under `dir` (a fresh folder of ours); every path is checked again once resolved. */
export function writeEntries(dir: string, entries: ZipEntry[]): void {
  const root = path.resolve(dir);
  for (const e of entries) {
    const target = path.resolve(root, e.name);
    if (!target.startsWith(root + path.sep)) throw new ZipRefusal('zip_bad_path', { name: e.name });
    if (e.dir) fs.mkdirSync(target, { recursive: true, mode: 0o700 });
    else {
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
      fs.writeFileSync(target, e.data, { mode: 0o600, flag: 'wx' });
    }
  }
}
