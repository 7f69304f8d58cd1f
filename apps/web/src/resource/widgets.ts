import type { FieldMeta } from './types.ts';

/** The input a form field gets. */
export type WidgetKind =
  | 'radio'
  | 'select'
  | 'checkboxes'
  | 'datetime'
  | 'json'
  | 'remote'
  | 'remoteMultiple'
  | 'input'
  | 'textarea'
  | 'password'
  | 'email'
  | 'switch'
  | 'tags'
  | 'number'
  | 'phone';

/**
 * By name first (`email`, `password`, `comment`), then by type: choices as radios (a select past
 * 4 options), related fields as remote selects, strings as inputs (a textarea without max_length,
 * a password input when write-only), and an input for anything else.
 */
export function widgetFor(name: string, meta: FieldMeta): WidgetKind {
  if (name === 'email' || meta.type === 'email') return 'email';
  if (name === 'password') return 'password';
  if (name === 'comment') return 'textarea';
  switch (meta.type) {
    case 'choice':
    case 'labeled_choice':
      return (meta.choices?.length ?? 0) > 4 ? 'select' : 'radio';
    case 'multiple choice':
      return 'checkboxes';
    case 'datetime':
    case 'date':
      return 'datetime';
    case 'json':
      return 'json';
    case 'field':
    case 'related_field':
    case 'object_related_field':
      return 'remote';
    case 'm2m_related_field':
      return 'remoteMultiple';
    case 'boolean':
      return 'switch';
    case 'list':
      return 'tags';
    case 'integer':
    case 'float':
    case 'decimal':
      return 'number';
    case 'string':
      if (meta.write_only) return 'password';
      return meta.max_length ? 'input' : 'textarea';
    default:
      return 'input';
  }
}
