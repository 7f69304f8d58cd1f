import type { I18nText } from '@gatehouse/contract';
import type { Described } from './routeMetadata.ts';
import type { FieldDef, ResourceDef } from './types.ts';
import { catalogue } from '../platform/i18n/catalogue.ts';
import type glossary from '../platform/i18n/locales/en/describe.json';

/**
 * Short declarations of what a hand-written route answers, for its OPTIONS (routeMetadata.ts):
 * `pick` takes some fields of a declared resource (a route answering users picks the user's
 * fields), `shape` names fields of its own whose labels come from one glossary
 * (`locales/<lang>/describe.json`), so a shape is a line, not three languages of labels.
 */
const G = catalogue<typeof glossary>('describe');
export type GlossaryKey = keyof typeof glossary;
type FieldType = FieldDef['type'];

export function pick(
  def: Pick<ResourceDef, 'label' | 'fields'>,
  names: readonly string[],
  more: Partial<Record<GlossaryKey, FieldType>> = {},
): Described {
  const fields: Record<string, FieldDef> = {};
  for (const n of names) {
    const fd = def.fields[n];
    if (!fd) throw new Error(`describe: ${n} is not a field of ${def.label.en}`);
    fields[n] = fd;
  }
  return { label: def.label, fields: { ...fields, ...shape(def.label, more).fields } };
}

/** Fields of a shape are read-only but for those named in `writable` (a form's inputs). */
export function shape(
  label: I18nText | GlossaryKey,
  fields: Partial<Record<GlossaryKey, FieldType>>,
  writable: readonly GlossaryKey[] = [],
): Described {
  const out: Record<string, FieldDef> = {};
  for (const [name, type] of Object.entries(fields))
    out[name] = {
      type: type!,
      label: G[name as GlossaryKey],
      ...(writable.includes(name as GlossaryKey) ? { required: true } : { readOnly: true }),
    };
  return { label: typeof label === 'string' ? G[label] : label, fields: out };
}

/** The nodes of a zTree answer (asset and node trees, permission trees). */
export const treeNodes: Described = shape('tree_node', {
  id: 'string',
  name: 'string',
  title: 'string',
  pId: 'string',
  isParent: 'boolean',
  open: 'boolean',
  iconSkin: 'string',
  chkDisabled: 'boolean',
  meta: 'json',
});
