/** The rules of the protocols editor (ProtocolSelector), as plain functions. */

export interface ProtocolRow {
  name: string;
  port: number | string | null;
  primary?: boolean;
  required?: boolean;
  default?: boolean;
  public?: boolean;
  setting?: Record<string, unknown>;
}

/** A protocol a platform offers (`GET /api/v1/assets/platforms/<id>/` `protocols`). */
export interface ProtocolChoice {
  name: string;
  port: number;
  primary?: boolean;
  required?: boolean;
  default?: boolean;
  port_from_addr?: boolean;
  /** Secret types an account may have over this protocol (the asset form's accounts). */
  secret_types?: string[];
  setting?: Record<string, unknown>;
}

/** i18n keys of the editor's errors. */
export type ProtocolError =
  | 'assets.protocol.portError'
  | 'assets.protocol.nameRequired'
  | 'assets.protocol.duplicate'
  | 'assets.protocol.onePrimary'
  | 'assets.protocol.primaryMissing'
  | 'assets.protocol.empty';

export function validPort(port: unknown): boolean {
  const s = typeof port === 'number' ? String(port) : typeof port === 'string' ? port.trim() : '';
  if (!/^\d{1,5}$/.test(s)) return false;
  const n = Number(s);
  return n >= 1 && n <= 65535;
}

/**
 * The first broken rule of a list, or null: at least one row, names given and unique, ports
 * 1–65535, exactly one primary (platforms), and the platform's primary present (assets).
 */
export function protocolsError(
  rows: readonly ProtocolRow[],
  opts: { primaryName?: string; choosePrimary?: boolean } = {},
): ProtocolError | null {
  if (!rows.length) return 'assets.protocol.empty';
  if (rows.some((r) => !r.name)) return 'assets.protocol.nameRequired';
  if (rows.some((r) => !validPort(r.port))) return 'assets.protocol.portError';
  if (new Set(rows.map((r) => r.name)).size !== rows.length) return 'assets.protocol.duplicate';
  if (opts.choosePrimary && rows.filter((r) => r.primary).length !== 1) return 'assets.protocol.onePrimary';
  if (opts.primaryName && !rows.some((r) => r.name === opts.primaryName)) return 'assets.protocol.primaryMissing';
  return null;
}

/** The last row, the primary and the platform's required protocols cannot be removed. */
export function canRemove(rows: readonly ProtocolRow[], index: number, requiredNames: readonly string[] = []): boolean {
  const row = rows[index];
  if (!row || rows.length <= 1) return false;
  return !row.primary && !requiredNames.includes(row.name);
}

/** Marks `index` as the only primary. */
export function setPrimary(rows: readonly ProtocolRow[], index: number): ProtocolRow[] {
  return rows.map((r, i) => ({ ...r, primary: i === index }));
}

/** A new row: the first offered protocol not yet used, at its default port. */
export function nextRow(rows: readonly ProtocolRow[], choices: readonly ProtocolChoice[]): ProtocolRow | null {
  const free = choices.find((c) => !rows.some((r) => r.name === c.name));
  return free ? { name: free.name, port: free.port, primary: false, setting: { ...(free.setting ?? {}) } } : null;
}

/**
 * An asset's starting protocols from its platform: the primary, the required
 * and the default ones, the primary first.
 */
export function initialProtocols(choices: readonly ProtocolChoice[]): ProtocolRow[] {
  const picked = choices.filter((c) => c.primary || c.required || c.default);
  const list = picked.length ? picked : choices.slice(0, 1);
  return [...list]
    .sort((a, b) => Number(Boolean(b.primary)) - Number(Boolean(a.primary)))
    .map((c) => ({ name: c.name, port: c.port, primary: Boolean(c.primary) }));
}

/** Marks an asset's rows with the platform's primary (assets store only name and port). */
export function markPrimary(rows: readonly ProtocolRow[], primaryName: string | undefined): ProtocolRow[] {
  return rows.map((r) => ({ ...r, primary: r.name === primaryName }));
}

/** What is sent: numbers for ports; assets send only `name` and `port`. */
export function protocolsPayload(rows: readonly ProtocolRow[], full: boolean): ProtocolRow[] {
  return rows.map((r) => (full ? { ...r, port: Number(r.port) } : { name: r.name, port: Number(r.port) }));
}
