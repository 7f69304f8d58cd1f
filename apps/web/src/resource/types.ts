/**
 * Shapes of the contract the generic screens are built from: the OPTIONS metadata, paginated
 * lists and the objects they hold.
 */

export type FieldType =
  | 'string'
  | 'boolean'
  | 'integer'
  | 'float'
  | 'decimal'
  | 'email'
  | 'url'
  | 'slug'
  | 'regex'
  | 'date'
  | 'datetime'
  | 'time'
  | 'choice'
  | 'labeled_choice'
  | 'multiple choice'
  | 'field'
  | 'related_field'
  | 'object_related_field'
  | 'm2m_related_field'
  | 'list'
  | 'json'
  | 'nested object'
  | 'tree';

export interface Choice {
  value: string | number | boolean;
  label: string;
}

export interface FieldMeta {
  /** One of FieldType; other names from the server are treated as plain values. */
  type: FieldType | (string & {});
  required?: boolean;
  read_only?: boolean;
  write_only?: boolean;
  label?: string;
  help_text?: string;
  default?: unknown;
  min_length?: number;
  max_length?: number;
  min_value?: number;
  max_value?: number;
  choices?: Choice[];
  child?: FieldMeta;
  children?: Record<string, FieldMeta>;
  /** actions.GET only: the field can be used as a list filter. */
  filter?: boolean;
  /** actions.GET only: the list can be ordered by this field. */
  order?: boolean;
}

export type FieldMetaMap = Record<string, FieldMeta>;

export interface ResourceMeta {
  name?: string;
  description?: string;
  actions?: Partial<Record<'GET' | 'POST' | 'PUT' | 'PATCH', FieldMetaMap>>;
}

/** A row or object of any resource: an id plus whatever the serializer gives. */
export interface ResourceObject {
  id: string;
  name?: string;
  hostname?: string;
  [field: string]: unknown;
}

export interface Page<T> {
  count: number;
  results: T[];
}

/** A search tag: `search` for free text, else a field name. */
export interface FilterTag {
  key: string;
  label: string;
  value: string;
  valueLabel: string;
}

export type Query = Record<string, string>;
