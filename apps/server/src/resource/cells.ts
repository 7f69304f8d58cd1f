import type { Language } from '@gatehouse/contract';
import { rt } from './messages.ts';
import type { FieldDef, ResourceDef, Row } from './types.ts';

/** How a value looks in a spreadsheet cell, and back. */

const FORMULA_START = /^[=+\-@\t\r]/;

/** Cells starting with = + - @ (or tab, CR) are prefixed with ' so spreadsheets never run them. */
export function neutralise(cell: string): string {
  return cell !== '-' && FORMULA_START.test(cell) ? `'${cell}` : cell;
}

function related(v: unknown): string {
  const o = v as Row;
  return o && typeof o === 'object' && 'id' in o ? `${o.name ?? o.display_name ?? ''}(${o.id})` : String(v);
}

export function toCell(f: FieldDef, v: unknown, lang: Language): string {
  if (v === null || v === undefined) return '-';
  if (typeof v === 'boolean') return rt(lang, v ? 'yes' : 'no');
  if (f.type === 'labeled_choice' && typeof v === 'object') return String((v as Row).value);
  if (f.type === 'object_related_field') return related(v);
  if (f.type === 'm2m_related_field' && Array.isArray(v)) return JSON.stringify(v.map(related));
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** A formula's first character: = + - @, tab, CR. */
function formulaStart(code: number): boolean {
  return code === 61 || code === 43 || code === 45 || code === 64 || code === 9 || code === 13;
}

/**
 * `neutralise(toCell(f, v, lang))` for one column, its branches chosen once per export instead of
 * once per cell (the yes/no words, the field's type).
 */
export function cellWriter(f: FieldDef, lang: Language): (v: unknown) => string {
  const yes = rt(lang, 'yes');
  const no = rt(lang, 'no');
  const other = f.type === 'object_related_field' ? related : (v: unknown) => toCell(f, v, lang);
  return (v) => {
    if (v === null || v === undefined) return '-';
    if (typeof v === 'boolean') return v ? yes : no;
    const s = typeof v === 'string' ? v : other(v);
    return s !== '-' && formulaStart(s.charCodeAt(0)) ? `'${s}` : s;
  };
}

/** Columns of an export or template: label as header (`*` when required), field name. */
export function exportColumns(
  def: ResourceDef,
  template: string | undefined,
  lang: Language,
): { name: string; f: FieldDef; header: string }[] {
  return Object.entries(def.fields)
    .filter(([name, f]) => {
      if (f.noExport) return false;
      if (template === 'import' || template === 'update')
        return !f.readOnly && !f.read ? true : template === 'update' && name === 'id';
      return !f.writeOnly;
    })
    .filter(([name]) => !(template === 'import' && name === 'id'))
    .map(([name, f]) => ({
      name,
      f,
      header: `${f.required && !f.readOnly ? '*' : ''}${name === 'id' ? 'ID' : f.label[lang]}`,
    }));
}

const NAME_ID = /^(.*)\(([^()]+)\)$/;

function parseRelated(s: string): unknown {
  const m = NAME_ID.exec(s.trim());
  return m ? { pk: m[2], name: m[1] } : s.trim();
}

/** A cell read from a file back to the value the API accepts. */
export function fromCell(f: FieldDef | undefined, raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  if (typeof raw !== 'string') return raw;
  let s = raw.replace(/[“”‘’]/g, '"').trim();
  if (s.startsWith("'") && FORMULA_START.test(s.slice(1))) s = s.slice(1);
  if (s === '-') return null;
  if (!f) return s;
  if (f.type === 'boolean') {
    const l = s.toLowerCase();
    if (['true', '1', 'yes', '是', 'はい'].includes(l)) return true;
    if (['false', '0', 'no', '否', 'いいえ'].includes(l)) return false;
    return s;
  }
  if (f.type === 'integer' && /^-?\d+$/.test(s)) return Number(s);
  if (s.startsWith('[') || s.startsWith('{')) {
    try {
      const parsed = JSON.parse(s) as unknown;
      if (f.type === 'm2m_related_field' && Array.isArray(parsed))
        return parsed.map((x) => (typeof x === 'string' ? parseRelated(x) : x));
      return parsed;
    } catch {
      return s;
    }
  }
  if (f.type === 'object_related_field') return parseRelated(s);
  if (f.type === 'm2m_related_field') return s ? s.split(/[,，]/).map(parseRelated) : [];
  return s;
}
