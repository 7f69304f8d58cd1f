import { createHash } from 'node:crypto';
import JSZip from 'jszip';
import { parse as parseYaml } from 'yaml';
import type { Language } from '@gatehouse/contract';
import { tr } from '../../../platform/i18n/catalogue.ts';
import { imageInfo } from '../../xpack/interface/imageSize.ts';
import { readZip, ZipRefusal, type ZipEntry } from '../../ops/playbooks/zipReader.ts';
import { AM } from './appletMessages.ts';

/**
 * Reads an uploaded applet package (issue 38 item 4; spec 02 §5 "Applet upload: zip only") and
 * refuses anything a host should not install: bytes that are not a zip, names that leave the
 * package (`..`, absolute, drive letters, backslashes), links and special files, more than
 * `APPLET_LIMITS.entries` entries or `APPLET_LIMITS.unpacked` bytes once inflated (the playbooks'
 * zip reader, ops/playbooks/zipReader.ts: zlib stops at the budget, so a lying header does not
 * help), and a manifest that does not say what the applet is.
 * The files may sit at the top of the zip or in one folder (JumpServer's packages are
 * `<name>/manifest.yml`). What is kept is a new zip of the checked files at its top.
 */
export const APPLET_LIMITS = {
  /** The uploaded zip. */
  upload: 10 * 1024 * 1024,
  /** Every file inflated, together. */
  unpacked: 50 * 1024 * 1024,
  entries: 1000,
  manifest: 64 * 1024,
  icon: 512 * 1024,
  readme: 64 * 1024,
} as const;

export const APPLET_TYPES = ['general', 'web'] as const;
export const APPLET_EDITIONS = ['community', 'enterprise'] as const;
const REQUIRED_FILES = ['manifest.yml', 'icon.png', 'setup.yml'];
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const VERSION_RE = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,15}$/;
const PROTOCOL_RE = /^[a-z0-9][a-z0-9_-]{0,31}$/;

export class AppletPackageError extends Error {}

export interface AppletManifest {
  name: string;
  display_name: string;
  version: string;
  author: string;
  type: (typeof APPLET_TYPES)[number];
  edition: (typeof APPLET_EDITIONS)[number];
  protocols: string[];
  tags: string[];
  comment: string;
  can_concurrent: boolean;
}

export interface AppletPackage {
  manifest: AppletManifest;
  icon: Buffer;
  readme: string;
  /** The repacked zip. */
  zip: Buffer;
  digest: string;
}

/** `{{ 'Text' | trans }}` in a manifest value, read from its `i18n` block in the uploader's language. */
function translated(value: unknown, i18n: unknown, lang: Language): unknown {
  if (typeof value !== 'string') return value;
  return value.replace(/\{\{\s*['"]([^'"]{1,256})['"]\s*\|\s*trans\s*\}\}/g, (_m, key: string) => {
    const entry = i18n && typeof i18n === 'object' ? (i18n as Record<string, unknown>)[key] : undefined;
    if (entry && typeof entry === 'object') {
      const e = entry as Record<string, unknown>;
      const text = e[lang] ?? e.en;
      if (typeof text === 'string') return text;
    }
    return key;
  });
}

function checkManifest(text: string, lang: Language): AppletManifest {
  const bad = (field: string, reason: string) => new AppletPackageError(tr(lang, AM.manifest_field, { field, reason }));
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new AppletPackageError(tr(lang, AM.manifest_yaml, { error: String((e as Error).message).slice(0, 200) }));
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new AppletPackageError(tr(lang, AM.manifest_map));
  const m = doc as Record<string, unknown>;
  const text_ = (field: string, max: number, required: boolean): string => {
    const v = translated(m[field], m.i18n, lang);
    if (v === undefined || v === null || v === '') {
      if (required) throw bad(field, tr(lang, AM.reason_required));
      return '';
    }
    if (typeof v !== 'string' && typeof v !== 'number') throw bad(field, tr(lang, AM.reason_text));
    const s = String(v).trim();
    if (s.length > max) throw bad(field, tr(lang, AM.reason_length, { max }));
    return s;
  };
  const list = (field: string, re: RegExp | undefined, maxItems: number, maxLen: number): string[] => {
    const v = m[field];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v) || v.length > maxItems) throw bad(field, tr(lang, AM.reason_list, { max: maxItems }));
    const out: string[] = [];
    for (const item of v) {
      if (typeof item !== 'string' || item.length > maxLen || (re && !re.test(item)))
        throw bad(field, tr(lang, AM.reason_item, { value: String(item).slice(0, 40) }));
      if (!out.includes(item)) out.push(item);
    }
    return out;
  };
  const name = text_('name', 128, true);
  if (!NAME_RE.test(name)) throw bad('name', tr(lang, AM.reason_name));
  const version = text_('version', 16, true);
  if (!VERSION_RE.test(version)) throw bad('version', tr(lang, AM.reason_version));
  const type = text_('type', 16, false) || 'general';
  if (!(APPLET_TYPES as readonly string[]).includes(type))
    throw bad('type', tr(lang, AM.reason_choice, { choices: APPLET_TYPES.join(', ') }));
  const edition = text_('edition', 16, false) || 'community';
  if (!(APPLET_EDITIONS as readonly string[]).includes(edition))
    throw bad('edition', tr(lang, AM.reason_choice, { choices: APPLET_EDITIONS.join(', ') }));
  const concurrent = m.can_concurrent;
  if (concurrent !== undefined && typeof concurrent !== 'boolean')
    throw bad('can_concurrent', tr(lang, AM.reason_bool));
  const protocols = list('protocols', PROTOCOL_RE, 20, 32);
  if (!protocols.length) throw bad('protocols', tr(lang, AM.reason_required));
  return {
    name,
    display_name: text_('display_name', 128, true),
    version,
    author: text_('author', 128, false),
    type: type as AppletManifest['type'],
    edition: edition as AppletManifest['edition'],
    protocols,
    tags: list('tags', undefined, 20, 64),
    comment: text_('comment', 1024, false),
    can_concurrent: concurrent !== false,
  };
}

const REFUSALS: Record<string, keyof typeof AM> = {
  upload_not_zip: 'zip_broken',
  zip_too_many: 'too_many',
  zip_entry_too_large: 'entry_too_large',
  zip_total_too_large: 'too_big',
  zip_bad_path: 'bad_path',
  zip_symlink: 'link',
  zip_unsupported: 'unsupported',
  zip_duplicate: 'duplicate',
};

/** Checks an uploaded package and repacks it; throws AppletPackageError with a message in `lang`. */
export async function readAppletPackage(data: Buffer, lang: Language): Promise<AppletPackage> {
  const fail = (message: string) => new AppletPackageError(message);
  const isZip =
    data.length >= 22 &&
    data[0] === 0x50 &&
    data[1] === 0x4b &&
    (data[2] === 3 || data[2] === 5) &&
    data[3] === data[2]! + 1;
  if (!isZip) throw fail(tr(lang, AM.not_zip));
  let entries: ZipEntry[];
  try {
    entries = readZip(data, {
      entries: APPLET_LIMITS.entries,
      entryBytes: APPLET_LIMITS.unpacked,
      totalBytes: APPLET_LIMITS.unpacked,
    });
  } catch (e) {
    if (!(e instanceof ZipRefusal)) throw e;
    const params = { ...e.params, name: (e.params.name ?? '').slice(0, 80) };
    throw fail(tr(lang, AM[REFUSALS[e.code] ?? 'zip_broken'], params));
  }
  const files = entries.filter((e) => !e.dir);
  // The package's folder: the top of the zip, or the one folder everything is in.
  let root = '';
  if (!files.some((f) => f.name === 'manifest.yml')) {
    const tops = new Set(entries.map((f) => f.name.split('/')[0]));
    const only = tops.size === 1 ? [...tops][0]! : '';
    if (only && files.every((f) => f.name.startsWith(`${only}/`))) root = `${only}/`;
  }
  for (const r of REQUIRED_FILES)
    if (!files.some((f) => f.name === root + r)) throw fail(tr(lang, AM.missing_file, { name: r }));
  const out = new JSZip();
  const contents = new Map<string, Buffer>();
  for (const f of files) {
    const rel = f.name.slice(root.length);
    contents.set(rel, f.data);
    out.file(rel, f.data, { binary: true, unixPermissions: 0o100644 });
  }
  const manifestBytes = contents.get('manifest.yml')!;
  if (manifestBytes.length > APPLET_LIMITS.manifest)
    throw fail(tr(lang, AM.file_too_big, { name: 'manifest.yml', max: APPLET_LIMITS.manifest / 1024 }));
  const manifest = checkManifest(manifestBytes.toString('utf8'), lang);
  const icon = contents.get('icon.png')!;
  if (icon.length > APPLET_LIMITS.icon)
    throw fail(tr(lang, AM.file_too_big, { name: 'icon.png', max: APPLET_LIMITS.icon / 1024 }));
  if (imageInfo(icon)?.type !== 'image/png') throw fail(tr(lang, AM.icon_png));
  const readmeBytes = contents.get('README.md') ?? contents.get('readme.md');
  const readme = readmeBytes ? readmeBytes.subarray(0, APPLET_LIMITS.readme).toString('utf8') : '';
  const zip = await out.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', platform: 'UNIX' });
  return { manifest, icon, readme, zip, digest: createHash('sha256').update(zip).digest('hex') };
}
