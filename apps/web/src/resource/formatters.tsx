import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { Tag, Typography } from 'antd';
import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import type { FieldMeta, ResourceObject } from './types.ts';
import { compactJson, formatDate, objectName } from './values.ts';

/** What a cell formatter gets: the row, the field, its value and metadata, and the UI language. */
export interface CellArgs {
  row: ResourceObject;
  field: string;
  value: unknown;
  meta?: FieldMeta;
  lang: string;
  t: TFunction;
}

export type CellFormatter = (args: CellArgs) => ReactNode;

const EMPTY = '-';
const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

export const text: CellFormatter = ({ value }) =>
  isEmpty(value) ? EMPTY : typeof value === 'object' ? objectName(value) : String(value);

/** `choice`: the server's `<field>_display`, else the label of the matching choice. */
export const choice: CellFormatter = ({ row, field, value, meta }) => {
  const display = row[`${field}_display`];
  if (typeof display === 'string') return display;
  const c = meta?.choices?.find((x) => String(x.value) === String(value));
  return c ? c.label : text({ row, field, value, meta } as CellArgs);
};

export const labeledChoice: CellFormatter = ({ value }) => (isEmpty(value) ? EMPTY : objectName(value));

export const boolean: CellFormatter = ({ value, t }) =>
  value ? (
    <span title={t('resource.yes')} aria-label={t('resource.yes')} data-bool="true">
      <CheckCircleFilled style={{ color: '#1ab394' }} />
    </span>
  ) : (
    <span title={t('resource.no')} aria-label={t('resource.no')} data-bool="false">
      <CloseCircleFilled style={{ color: '#ed5565' }} />
    </span>
  );

export const datetime: CellFormatter = ({ value, lang }) => (isEmpty(value) ? EMPTY : formatDate(value, lang));

export const related: CellFormatter = ({ value }) => (isEmpty(value) ? EMPTY : objectName(value));

export const m2m: CellFormatter = ({ value }) =>
  isEmpty(value) ? EMPTY : Array.isArray(value) ? value.map(objectName).join(', ') : objectName(value);

export const list: CellFormatter = ({ value }) =>
  isEmpty(value) ? (
    EMPTY
  ) : (
    <>
      {(Array.isArray(value) ? value : [value]).map((v, i) => (
        <Tag key={i}>{objectName(v)}</Tag>
      ))}
    </>
  );

export const json: CellFormatter = ({ value }) => {
  const s = compactJson(value);
  return (
    <Typography.Text ellipsis={{ tooltip: s }} style={{ maxWidth: 240 }}>
      {s}
    </Typography.Text>
  );
};

/** The count of a list value (e.g. a group's members). */
export const amount: CellFormatter = ({ value }) =>
  Array.isArray(value) ? value.length : isEmpty(value) ? 0 : String(value);

/** One formatter per metadata type. */
export function formatterForType(meta: FieldMeta | undefined): CellFormatter {
  switch (meta?.type) {
    case 'choice':
      return choice;
    case 'labeled_choice':
      return labeledChoice;
    case 'boolean':
      return boolean;
    case 'datetime':
      return datetime;
    case 'object_related_field':
    case 'related_field':
      return related;
    case 'm2m_related_field':
      return m2m;
    case 'list':
    case 'multiple choice':
      return list;
    case 'json':
    case 'nested object':
      return json;
    default:
      return text;
  }
}
