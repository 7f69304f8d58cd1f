import { ConfigError } from './configError.ts';

/**
 * Bounds on what one caller may make the server hold or do (issue 11: "bounded everything"). Each
 * is an environment variable; the README's configuration table lists them with their defaults.
 */
export interface Limits {
  /** JSON/form body of a signed-in caller, bytes. */
  bodyBytes: number;
  /** JSON/form body of an anonymous caller (login, password reset...), bytes. */
  anonymousBodyBytes: number;
  /** Ids kept under one `spm` (`POST /api/v1/common/resources/cache/`). */
  spmIds: number;
  /** Ids in one relation field of a write, or in `ids`/`id!` of a list. */
  relationIds: number;
  /** Open websockets of one user. */
  websocketsPerUser: number;
  /** Time to receive a request's headers, ms (slow-header clients). */
  headersTimeoutMs: number;
  /** Time to receive a whole request, ms. */
  requestTimeoutMs: number;
  /** Idle time before a kept-alive connection is closed, ms. */
  keepAliveTimeoutMs: number;
  /** Import (render-to-json) limits on the parsed table. */
  importRows: number;
  importColumns: number;
  importCellChars: number;
  /** Uncompressed size of an XLSX's parts, bytes (zip bombs). */
  importUnzippedBytes: number;
  /** Rows an export reads from its cursor at a time (resource/export.ts). */
  exportBatchRows: number;
  /**
   * Substring-index matches of one search term read before it counts as common and the list is
   * scanned instead (SQLite; resource/textSearch.ts).
   */
  searchCommonMatches: number;
  /** Graphical (VNC/RDP) sessions one instance holds at once (each may run a virtual display and an RDP client). */
  graphicalSessions: number;
}

const MB = 1024 * 1024;

const SETTINGS: [keyof Limits, string, number][] = [
  ['bodyBytes', 'LIMIT_BODY_BYTES', 8 * MB],
  ['anonymousBodyBytes', 'LIMIT_ANONYMOUS_BODY_BYTES', 64 * 1024],
  ['spmIds', 'LIMIT_SPM_IDS', 20_000],
  ['relationIds', 'LIMIT_RELATION_IDS', 10_000],
  ['websocketsPerUser', 'LIMIT_WEBSOCKETS_PER_USER', 20],
  ['headersTimeoutMs', 'HTTP_HEADERS_TIMEOUT_MS', 20_000],
  ['requestTimeoutMs', 'HTTP_REQUEST_TIMEOUT_MS', 300_000],
  ['keepAliveTimeoutMs', 'HTTP_KEEPALIVE_TIMEOUT_MS', 10_000],
  ['importRows', 'IMPORT_MAX_ROWS', 100_000],
  ['importColumns', 'IMPORT_MAX_COLUMNS', 200],
  ['importCellChars', 'IMPORT_MAX_CELL_CHARS', 32_767],
  ['importUnzippedBytes', 'IMPORT_MAX_UNZIPPED_BYTES', 256 * MB],
  ['exportBatchRows', 'EXPORT_BATCH_ROWS', 1000],
  ['searchCommonMatches', 'SEARCH_COMMON_MATCHES', 10_000],
  ['graphicalSessions', 'LIMIT_GRAPHICAL_SESSIONS', 20],
];

export const DEFAULT_LIMITS = Object.fromEntries(SETTINGS.map(([k, , d]) => [k, d])) as unknown as Limits;

export function loadLimits(env: NodeJS.ProcessEnv): Limits {
  const out = { ...DEFAULT_LIMITS };
  for (const [key, name] of SETTINGS) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw)))
      throw new ConfigError(name, `"${raw}" is not a positive whole number`);
    out[key] = Number(raw);
  }
  return out;
}

/** `TRUSTED_PROXIES`: comma-separated addresses or CIDR ranges whose `X-Forwarded-*` headers are believed. */
export function parseTrustedProxies(raw: string | undefined): string[] {
  const list = (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const p of list) {
    if (!/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(p))
      throw new ConfigError('TRUSTED_PROXIES', `"${p}" is not an IP address or CIDR range (e.g. 10.0.0.1, 10.0.0.0/8)`);
  }
  return list;
}
