import { type I18nText } from '@gatehouse/contract';
import type { Choice, FieldDef, FkDef, M2MDef } from './types.ts';
import { catalogue } from '../platform/i18n/catalogue.ts';
import type resourceMessages from '../platform/i18n/locales/en/resource.json';
const M = catalogue<typeof resourceMessages>('resource');

/** Short constructors for field declarations: `f.string(L.name, { required: true, search: true })`. */
type Opts = Partial<FieldDef>;

export const L = {
  id: M.id,
  name: M.name,
  comment: M.comment,
  created_by: M.created_by,
  updated_by: M.updated_by,
  date_created: M.date_created,
  date_updated: M.date_updated,
  is_active: M.is_active,
};

export const f = {
  id: (): FieldDef => ({ type: 'string', label: L.id, readOnly: true, filter: true }),
  string: (label: I18nText, o: Opts = {}): FieldDef => ({ type: 'string', label, maxLength: 128, ...o }),
  text: (label: I18nText, o: Opts = {}): FieldDef => ({ type: 'string', label, ...o }),
  email: (label: I18nText, o: Opts = {}): FieldDef => ({ type: 'email', label, maxLength: 128, ...o }),
  bool: (label: I18nText, o: Opts = {}): FieldDef => ({ type: 'boolean', label, ...o }),
  int: (label: I18nText, o: Opts = {}): FieldDef => ({ type: 'integer', label, ...o }),
  datetime: (label: I18nText, o: Opts = {}): FieldDef => ({ type: 'datetime', label, ...o }),
  choice: (label: I18nText, choices: Choice[], o: Opts = {}): FieldDef => ({
    type: 'labeled_choice',
    label,
    choices,
    ...o,
  }),
  json: (label: I18nText, o: Opts = {}): FieldDef => ({ type: 'json', label, ...o }),
  list: (label: I18nText, o: Opts = {}): FieldDef => ({ type: 'list', label, child: { type: 'string' }, ...o }),
  fk: (label: I18nText, fk: FkDef, o: Opts = {}): FieldDef => ({ type: 'object_related_field', label, fk, ...o }),
  m2m: (label: I18nText, m2m: M2MDef, o: Opts = {}): FieldDef => ({ type: 'm2m_related_field', label, m2m, ...o }),
  /** A read-only value computed from the row. */
  computed: (type: FieldDef['type'], label: I18nText, read: FieldDef['read'], o: Opts = {}): FieldDef => ({
    type,
    label,
    read,
    readOnly: true,
    ...o,
  }),

  comment: (): FieldDef => ({ type: 'string', label: L.comment, default: '' }),
  createdBy: (): FieldDef => ({ type: 'string', label: L.created_by, readOnly: true }),
  updatedBy: (): FieldDef => ({ type: 'string', label: L.updated_by, readOnly: true }),
  dateCreated: (): FieldDef => ({ type: 'datetime', label: L.date_created, readOnly: true, order: true }),
  dateUpdated: (): FieldDef => ({ type: 'datetime', label: L.date_updated, readOnly: true, order: true }),
};
