import type { Language } from '@gatehouse/contract';
import { columnOf } from './query.ts';
import type { ResourceRoute } from './routes.ts';
import type { FieldDef, FieldType, ResourceDef, Row } from './types.ts';

/**
 * The OpenAPI 3.1 description of a declared resource: JSON Schemas of its objects built from the
 * field declarations (types, required, read-only, choices, bounds), and one operation per route the
 * framework gives it (routes.ts). modules/apidocs puts these into the whole API's document.
 */

export type Schema = Row;
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

const PRIMITIVE: Partial<Record<FieldType, Schema>> = {
  string: { type: 'string' },
  email: { type: 'string', format: 'email' },
  integer: { type: 'integer' },
  boolean: { type: 'boolean' },
  date: { type: 'string', format: 'date' },
  json: {},
  'nested object': { type: 'object' },
  field: {},
};

const RELATED_OUT: Schema = {
  type: 'object',
  properties: { id: { type: 'string' }, name: { type: 'string' } },
  required: ['id'],
};
const RELATED_IN: Schema = {
  description: 'The id of the related object; {"id": …} or {"pk": …} are accepted too.',
  oneOf: [
    { type: 'string' },
    { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    { type: 'object', properties: { pk: { type: 'string' } }, required: ['pk'] },
  ],
};
const DATETIME_OUT = 'Shown as `YYYY/MM/DD hh:mm:ss +HHMM` in the zone of the X-TZ header (UTC without it).';
const DATETIME_IN = 'Accepts `YYYY/MM/DD hh:mm:ss +HHMM`, `YYYY-MM-DD hh:mm:ss +HHMM` and ISO 8601.';

/** The JSON Schema of one field, as output (`read`) or as accepted in a body (`write`). */
export function fieldSchema(f: FieldDef, lang: Language, dir: 'read' | 'write'): Schema {
  const values = f.choices?.map((c) => c.value);
  let s: Schema;
  switch (f.type) {
    case 'datetime':
      s = { type: 'string', description: dir === 'read' ? DATETIME_OUT : DATETIME_IN };
      break;
    case 'choice':
      s = values ? { enum: values } : { type: 'string' };
      break;
    case 'labeled_choice':
      s =
        dir === 'read'
          ? {
              type: 'object',
              properties: { value: values ? { enum: values } : {}, label: { type: 'string' } },
              required: ['value', 'label'],
            }
          : values
            ? { enum: values }
            : {};
      break;
    case 'object_related_field':
      s = dir === 'read' ? { ...RELATED_OUT } : { ...RELATED_IN };
      break;
    case 'm2m_related_field':
      s = { type: 'array', items: dir === 'read' ? RELATED_OUT : RELATED_IN };
      break;
    case 'list':
      s = { type: 'array', items: { ...(PRIMITIVE[f.child?.type ?? 'string'] ?? {}) } };
      break;
    case 'tree':
      s =
        dir === 'read'
          ? {
              type: 'array',
              items: {
                type: 'object',
                properties: { value: values ? { enum: values } : {}, label: { type: 'string' } },
              },
            }
          : { type: 'array', items: values ? { enum: values } : { type: 'string' } };
      break;
    default:
      s = { ...(PRIMITIVE[f.type] ?? {}) };
  }
  s.title = f.label[lang];
  if (f.helpText) s.description = s.description ? `${f.helpText[lang]} ${s.description}` : f.helpText[lang];
  if (f.maxLength && (f.type === 'string' || f.type === 'email')) s.maxLength = f.maxLength;
  if (f.minValue !== undefined) s.minimum = f.minValue;
  if (f.maxValue !== undefined) s.maximum = f.maxValue;
  if (f.choices && f.type !== 'choice')
    s['x-choices'] = f.choices.map((c) => ({ value: c.value, label: c.label[lang] }));
  if (f.readOnly || f.read) s.readOnly = true;
  if (f.writeOnly) s.writeOnly = true;
  const d = f.default;
  if (d !== undefined && typeof d !== 'function' && dir === 'write') s.default = d;
  return s;
}

const writable = (f: FieldDef) => !f.readOnly && !f.read;

/** The component schemas of a resource: its objects as output, as created/replaced, and as patched. */
export function resourceSchemas(def: ResourceDef, name: string, lang: Language): Record<string, Schema> {
  const out: Row = {};
  const inp: Row = {};
  const required: string[] = [];
  for (const [field, f] of Object.entries(def.fields)) {
    if (!f.writeOnly) out[field] = fieldSchema(f, lang, 'read');
    if (writable(f)) {
      inp[field] = fieldSchema(f, lang, 'write');
      if (f.required && f.default === undefined) required.push(field);
    }
  }
  if (def.orgScoped) {
    out.org_id = { type: 'string', readOnly: true, title: 'Organization ID' };
    out.org_name = { type: 'string', readOnly: true, title: 'Org name' };
  }
  return {
    [name]: { type: 'object', title: def.label[lang], properties: out },
    [`${name}Request`]: {
      type: 'object',
      title: def.label[lang],
      properties: inp,
      ...(required.length ? { required } : {}),
    },
    [`Patched${name}Request`]: { type: 'object', title: def.label[lang], properties: inp },
  };
}

const q = (name: string, description: string, schema: Schema = { type: 'string' }): Schema => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});

/** Query parameters of the list (and of bulk writes and exports, which select rows the same way). */
export function listParameters(def: ResourceDef, lang: Language): Schema[] {
  const fields = Object.entries(def.fields);
  const searchable = fields.filter(([n, f]) => f.search && columnOf(n, f)).map(([n]) => n);
  const params: Schema[] = [
    q('spm', 'Rows saved under this id by POST /api/v1/common/resources/cache/.'),
    q('ids', 'Comma-separated ids.'),
    q('id!', 'Comma-separated ids to leave out.'),
  ];
  if (searchable.length)
    params.push(q('search', `Every word must occur in one of: ${searchable.join(', ')} (case-insensitive).`));
  for (const [name, f] of fields)
    if (f.filter) params.push(q(name, `Exact match on ${f.label[lang]}.`, filterSchema(f)));
  for (const name of Object.keys(def.extraFilters ?? {})) params.push(q(name, 'Filter.'));
  if (def.dateRangeField) {
    params.push(q('date_from', `${def.dateRangeField} on or after. ${DATETIME_IN}`));
    params.push(q('date_to', `${def.dateRangeField} on or before. ${DATETIME_IN}`));
  }
  return params;
}

function filterSchema(f: FieldDef): Schema {
  if (f.type === 'boolean') return { type: 'boolean' };
  if (f.type === 'integer') return { type: 'integer' };
  if (f.choices) return { enum: f.choices.map((c) => c.value) };
  return { type: 'string' };
}

function pageParameters(def: ResourceDef): Schema[] {
  const orderable = Object.entries(def.fields)
    .filter(([n, f]) => f.order && columnOf(n, f))
    .map(([n]) => n);
  return [
    q('order', `Comma-separated fields, \`-\` for descending: ${orderable.join(', ') || '(none)'}.`),
    q('limit', 'Page size (at most 100). Without it the answer is a plain array of every row.', {
      type: 'integer',
      minimum: 1,
    }),
    q('offset', 'Rows to skip.', { type: 'integer', minimum: 0 }),
    q('fields', 'Comma-separated fields to output.'),
    q('fields!', 'Comma-separated fields to leave out.'),
    q('fields_size', 'A preset of fields.', { enum: ['mini', 'small'] }),
    q('format', 'Export the selected rows as a file.', { enum: ['csv', 'xlsx'] }),
    q('template', 'With format: an import template (writable fields), or an update template (with ID).', {
      enum: ['import', 'update'],
    }),
  ];
}

const json = (schema: Schema) => ({ 'application/json': { schema } });
const withId = (name: string): Schema => ({
  allOf: [ref(name), { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }],
});

/** The operation a resource route serves (summary, parameters, body, answers), without path, tags or security. */
export function resourceOperation(r: ResourceRoute, name: string, lang: Language): Schema {
  const { def } = r;
  const label = def.label[lang];
  const one = json(ref(name));
  const fieldErrors = { $ref: '#/components/responses/ValidationError' };
  const notFound = { $ref: '#/components/responses/NotFound' };
  switch (r.action) {
    case 'list':
      return {
        summary: `List ${label}`,
        parameters: [...listParameters(def, lang), ...pageParameters(def)],
        responses: {
          200: {
            description: 'Every row (a plain array), a page when `limit` is given, or a file with `format`.',
            content: {
              'application/json': {
                schema: {
                  oneOf: [
                    { type: 'array', items: ref(name) },
                    {
                      type: 'object',
                      properties: {
                        count: { type: 'integer' },
                        next: { type: ['string', 'null'] },
                        previous: { type: ['string', 'null'] },
                        results: { type: 'array', items: ref(name) },
                      },
                      required: ['count', 'next', 'previous', 'results'],
                    },
                  ],
                },
              },
              'text/csv': { schema: { type: 'string' } },
              'application/xlsx': { schema: { type: 'string', contentEncoding: 'binary' } },
            },
          },
          400: fieldErrors,
        },
      };
    case 'create':
      return {
        summary: `Create ${label} (one object, or an array created all or nothing)`,
        requestBody: {
          required: true,
          content: json({ oneOf: [ref(`${name}Request`), { type: 'array', items: ref(`${name}Request`) }] }),
        },
        responses: {
          201: {
            description: 'Created (an array when an array was sent).',
            content: json({ oneOf: [ref(name), { type: 'array', items: ref(name) }] }),
          },
          400: fieldErrors,
        },
      };
    case 'retrieve':
      return {
        summary: `Retrieve ${label}`,
        responses: { 200: { description: 'The object.', content: one }, 404: notFound },
      };
    case 'update':
    case 'partial_update': {
      const body = r.action === 'update' ? `${name}Request` : `Patched${name}Request`;
      return {
        summary: `${r.action === 'update' ? 'Replace' : 'Change'} ${label}`,
        requestBody: { required: true, content: json(ref(body)) },
        responses: { 200: { description: 'The object as saved.', content: one }, 400: fieldErrors, 404: notFound },
      };
    }
    case 'bulk_update':
    case 'bulk_partial_update': {
      const body = r.action === 'bulk_update' ? `${name}Request` : `Patched${name}Request`;
      return {
        summary: `${r.action === 'bulk_update' ? 'Replace' : 'Change'} several ${label} by id, all or nothing`,
        parameters: listParameters(def, lang),
        requestBody: { required: true, content: json({ type: 'array', items: withId(body) }) },
        responses: {
          200: { description: 'The objects as saved.', content: json({ type: 'array', items: ref(name) }) },
          400: fieldErrors,
        },
      };
    }
    case 'destroy':
      return { summary: `Delete ${label}`, responses: { 204: { description: 'Deleted.' }, 404: notFound } };
    case 'bulk_destroy':
      return {
        summary: `Delete the selected ${label} (spm or ids is required)`,
        parameters: listParameters(def, lang),
        responses: { 204: { description: 'Deleted.' }, 400: fieldErrors },
      };
    case 'metadata':
      return {
        summary: `Field metadata of ${label}`,
        responses: {
          200: { description: 'Field descriptions for GET, POST and PUT.', content: json({ type: 'object' }) },
        },
      };
    case 'render_to_json':
      return {
        summary: `Read a CSV or XLSX file of ${label} into JSON rows`,
        requestBody: {
          required: true,
          content: {
            'text/csv': { schema: { type: 'string' } },
            'text/xlsx': { schema: { type: 'string', contentEncoding: 'binary' } },
          },
        },
        responses: {
          200: {
            description: 'Column titles matched to fields, and one object per row.',
            content: json({
              type: 'object',
              properties: {
                title: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
                data: { type: 'array', items: ref(`Patched${name}Request`) },
              },
              required: ['title', 'data'],
            }),
          },
          400: { description: 'The file could not be read.' },
        },
      };
  }
}
