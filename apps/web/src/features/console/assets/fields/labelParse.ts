/** Labels typed as `name:value` tags (`labels`). */

export interface LabelPair {
  name: string;
  value: string;
}

/** `name:value` (both non-empty, split at the first colon), else null. */
export function parseLabel(raw: string): LabelPair | null {
  const s = raw.trim();
  const i = s.indexOf(':');
  if (i <= 0) return null;
  const name = s.slice(0, i).trim();
  const value = s.slice(i + 1).trim();
  return name && value ? { name, value } : null;
}

export const formatLabel = (l: LabelPair) => `${l.name}:${l.value}`;

/** The typed entries (not ids of known labels) that are not `name:value`. */
export function badLabels(values: readonly string[], knownIds: ReadonlySet<string>): string[] {
  return values.filter((v) => !knownIds.has(v) && !parseLabel(v));
}

/** A stable colour for a label name, so equal names look alike in lists and cards. */
const COLOURS = ['blue', 'green', 'orange', 'purple', 'cyan', 'magenta', 'gold', 'geekblue', 'volcano', 'lime'];
export function labelColour(name: string): string {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return COLOURS[h % COLOURS.length]!;
}
