import type { Language } from '@gatehouse/contract';
import { columnOf } from './query.ts';
import type { FieldDef, ResourceDef, Row, TreeChoice } from './types.ts';

/** `OPTIONS` metadata: actions.GET/POST/PUT field maps the console builds its screens from. */

function defaultOf(f: FieldDef): unknown {
  const d = f.default;
  if (typeof d === 'function') return undefined;
  return ['string', 'number', 'boolean'].includes(typeof d) || Array.isArray(d) ? d : undefined;
}

function treeInfo(nodes: TreeChoice[], lang: Language): Row[] {
  return nodes.map((n) => ({
    value: n.value,
    label: n.label[lang],
    ...(n.children ? { children: treeInfo(n.children, lang) } : {}),
  }));
}

export function fieldInfo(name: string, f: FieldDef, lang: Language, forGet: boolean): Row {
  const info: Row = { type: f.type, required: Boolean(f.required) && !f.readOnly && !f.read };
  const d = defaultOf(f);
  if (d !== undefined) info.default = d;
  if (f.readOnly || f.read) info.read_only = true;
  info.label = name === 'id' ? 'ID' : f.label[lang];
  if (f.helpText) info.help_text = f.helpText[lang];
  if (f.maxLength) info.max_length = f.maxLength;
  if (f.minValue !== undefined) info.min_value = f.minValue;
  if (f.maxValue !== undefined) info.max_value = f.maxValue;
  if (f.writeOnly) info.write_only = true;
  if (f.child) info.child = { type: f.child.type, required: true, read_only: false };
  if (f.choices) info.choices = f.choices.map((c) => ({ value: c.value, label: c.label[lang] }));
  if (f.tree) info.tree = treeInfo(f.tree, lang);
  if (forGet) {
    if (f.filter) info.filter = true;
    if (f.order && columnOf(name, f)) info.order = true;
  }
  return info;
}

export function metadata(def: ResourceDef, lang: Language): Row {
  const get: Row = {};
  const write: Row = {};
  for (const [name, f] of Object.entries(def.fields)) {
    get[name] = fieldInfo(name, f, lang, true);
    write[name] = fieldInfo(name, f, lang, false);
  }
  if (def.orgScoped) {
    const org = { type: 'string', required: false, read_only: true, label: 'Organization ID' };
    const orgName = {
      type: 'string',
      required: false,
      read_only: true,
      label: { en: 'Org name', zh: '组织名称', ja: '組織名' }[lang],
    };
    Object.assign(get, { org_id: org, org_name: orgName });
    Object.assign(write, { org_id: org, org_name: orgName });
  }
  return {
    name: def.label[lang],
    description: '',
    renders: ['application/json', 'text/csv', 'application/xlsx'],
    parses: ['application/json', 'text/csv', 'text/xlsx'],
    actions: { GET: get, POST: write, PUT: write },
  };
}
