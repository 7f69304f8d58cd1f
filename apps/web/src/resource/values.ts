/** Reading the contract's field representations for display. */

/** `2023/09/26 14:03:11 +0800` (the contract's format) or ISO-8601 → Date. */
export function parseServerDate(value: unknown): Date | null {
  if (typeof value !== 'string' || !value) return null;
  const m = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2})(?: ([+-])(\d{2}):?(\d{2}))?$/.exec(value.trim());
  const d = m
    ? new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7] ? `${m[7]}${m[8]}:${m[9]}` : 'Z'}`)
    : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A date and time written the way the UI language writes them. */
export function formatDate(value: unknown, lang: string): string {
  const d = parseServerDate(value);
  if (!d) return typeof value === 'string' && value ? value : '-';
  let f = dateFormats.get(lang);
  if (!f) {
    f = new Intl.DateTimeFormat(lang, {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    dateFormats.set(lang, f);
  }
  return f.format(d);
}

/** The name of a related object (`{id, name}`, roles' `display_name`, labeled choices' `label`). */
export function objectName(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return String(value);
  const o = value as Record<string, unknown>;
  for (const k of ['display_name', 'label', 'name', 'value', 'id']) {
    if (o[k] !== undefined && o[k] !== null && o[k] !== '') return String(o[k]);
  }
  return JSON.stringify(value);
}

export function compactJson(value: unknown): string {
  if (value === null || value === undefined) return '-';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The id (primary key) of a related value given as `{id}`, `{pk}` or a scalar. */
export function relatedId(value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    return o.id ?? o.pk ?? o.value;
  }
  return value;
}
