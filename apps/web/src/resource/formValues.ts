import dayjs, { isDayjs } from 'dayjs';
import type { SelectOption } from './RemoteSelect.tsx';
import type { FieldMetaMap, ResourceObject } from './types.ts';
import { objectName, parseServerDate, relatedId } from './values.ts';

type Values = Record<string, unknown>;

const RELATED = new Set(['field', 'related_field', 'object_related_field']);

function toFormValue(type: string, v: unknown): unknown {
  if (v === undefined || v === null) {
    if (type === 'm2m_related_field' || type === 'multiple choice' || type === 'list') return [];
    return v === null && !['json', 'datetime', 'date'].includes(type) ? null : undefined;
  }
  switch (type) {
    case 'choice':
    case 'labeled_choice':
      return typeof v === 'object' && v && 'value' in v ? (v as { value: unknown }).value : v;
    case 'multiple choice':
      return (Array.isArray(v) ? v : [v]).map((x) =>
        typeof x === 'object' && x && 'value' in x ? (x as { value: unknown }).value : x,
      );
    case 'm2m_related_field':
      return (Array.isArray(v) ? v : [v]).map((x) => String(relatedId(x)));
    case 'datetime':
    case 'date': {
      const d = parseServerDate(v);
      return d ? dayjs(d) : undefined;
    }
    case 'json':
      return typeof v === 'string' ? v : JSON.stringify(v, null, 2);
    case 'list':
      return (Array.isArray(v) ? v : [v]).map(objectName);
    default:
      return RELATED.has(type) ? String(relatedId(v)) : v;
  }
}

/**
 * Form values from an object's fields (update, clone), or the metadata defaults without one:
 * labeled choices become their value, related objects their id, datetimes dayjs values.
 */
export function toFormValues(
  object: ResourceObject | undefined,
  meta: FieldMetaMap,
  fields: readonly string[],
): Values {
  const out: Values = {};
  for (const f of fields) {
    const m = meta[f];
    if (!m) continue;
    if (object && !(f in object)) continue;
    const v = object ? object[f] : m.default;
    const converted = toFormValue(m.type, v);
    if (converted !== undefined) out[f] = converted;
  }
  return out;
}

/** Options of related fields already known from the object, so selects show names at once. */
export function seedOptions(object: ResourceObject | undefined, meta: FieldMetaMap): Record<string, SelectOption[]> {
  const out: Record<string, SelectOption[]> = {};
  if (!object) return out;
  for (const [f, m] of Object.entries(meta)) {
    if (m.type !== 'm2m_related_field' && !RELATED.has(m.type)) continue;
    const v = object[f];
    if (v === null || v === undefined) continue;
    out[f] = (Array.isArray(v) ? v : [v]).map((x) => ({ value: String(relatedId(x)), label: objectName(x) }));
  }
  return out;
}

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

/**
 * The body to send: datetimes as ISO-8601, JSON text parsed, unset values left out, and empty
 * write-only values (an untouched password) left out so the server keeps what it has.
 */
export function toPayload(values: Values, meta: FieldMetaMap): Values {
  const out: Values = {};
  for (const [f, v] of Object.entries(values)) {
    if (v === undefined) continue;
    const m = meta[f];
    if (m?.write_only && isEmpty(v)) continue;
    if (isDayjs(v)) out[f] = v.toISOString();
    else if (m?.type === 'json' && typeof v === 'string') out[f] = v.trim() ? JSON.parse(v) : null;
    else out[f] = v;
  }
  return out;
}

/** A clone keeps everything but its id; its name (or hostname) gets the clone-from prefix. */
export function cloneOf(object: ResourceObject, prefix: string): ResourceObject {
  const { id: _id, ...rest } = object;
  const copy = { ...rest } as ResourceObject;
  for (const key of ['name', 'hostname'] as const) {
    if (typeof object[key] === 'string') {
      copy[key] = `${prefix} ${object[key]}`;
      break;
    }
  }
  return copy;
}
