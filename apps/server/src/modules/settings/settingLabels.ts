import fs from 'node:fs';
import path from 'node:path';
import { LANGUAGES, type I18nText, type Language, type SettingField } from '@gatehouse/contract';
import type { FieldDef } from '../../resource/types.ts';
import type { Described } from '../../resource/routeMetadata.ts';

/**
 * What a settings category answers, for `OPTIONS settings/setting/?category=`: its fields
 * (@gatehouse/contract settingCategories.ts) with the labels and help the console shows, read once
 * from the console's catalogue (apps/web/src/lib/i18n/locales/<lang>/settings.json, `field`), the
 * one place they are written; a field the console does not label is named by its key.
 */
type Labels = Record<string, { label?: string; help?: string }>;
let cache: Record<Language, Labels> | undefined;

function labels(): Record<Language, Labels> {
  if (cache) return cache;
  const dir = path.join(import.meta.dirname, '../../../../web/src/lib/i18n/locales');
  const read = (lang: Language): Labels => {
    try {
      return (
        (JSON.parse(fs.readFileSync(path.join(dir, lang, 'settings.json'), 'utf8')) as { field?: Labels }).field ?? {}
      );
    } catch {
      return {};
    }
  };
  cache = Object.fromEntries(LANGUAGES.map((l) => [l, read(l)])) as Record<Language, Labels>;
  return cache;
}

const TYPES: Record<SettingField['type'], FieldDef['type']> = {
  bool: 'boolean',
  int: 'integer',
  choice: 'choice',
  string: 'string',
  json: 'json',
  orgs: 'json',
  list: 'list',
  object: 'nested object',
};

/** A setting's label or help in every language, from the console's catalogue; the key when it has no label. */
function textOf(key: string, part: 'label' | 'help'): I18nText | undefined {
  const all = labels();
  if (part === 'help' && !all.en[key]?.help) return undefined;
  return Object.fromEntries(LANGUAGES.map((l) => [l, all[l][key]?.[part] ?? all.en[key]?.[part] ?? key])) as I18nText;
}

const labelled = (key: string): Pick<FieldDef, 'label' | 'helpText'> => {
  const help = textOf(key, 'help');
  return { label: textOf(key, 'label')!, ...(help ? { helpText: help } : {}) };
};

export function describeCategory(category: string, fields: Readonly<Record<string, SettingField>>): Described {
  const out: Record<string, FieldDef> = {};
  for (const [key, f] of Object.entries(fields)) {
    out[key] = {
      type: TYPES[f.type],
      ...labelled(key),
      ...(f.type === 'int' ? { minValue: f.min, maxValue: f.max } : {}),
      ...(f.type === 'string' ? { maxLength: f.maxLength } : {}),
      ...('secret' in f && f.secret ? { writeOnly: true } : {}),
      ...(f.type === 'choice' ? { choices: f.choices.map((c) => ({ value: c, label: labelOf(String(c)) })) } : {}),
    };
  }
  return { label: labelOf(category), fields: out };
}

const labelOf = (s: string): I18nText => Object.fromEntries(LANGUAGES.map((l) => [l, s])) as I18nText;

/** A settings answer of values only (`public/`): each key typed from its value, read-only, labelled as above. */
export function describeValues(name: string, values: Record<string, unknown>): Described {
  const typeOf = (v: unknown): FieldDef['type'] =>
    typeof v === 'boolean'
      ? 'boolean'
      : typeof v === 'number'
        ? 'integer'
        : typeof v === 'string' || v === null
          ? 'string'
          : 'json';
  const fields: Record<string, FieldDef> = {};
  for (const [k, v] of Object.entries(values)) fields[k] = { type: typeOf(v), ...labelled(k), readOnly: true };
  return { label: labelOf(name), fields };
}
