import { Card, Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatterForType, type CellFormatter } from './formatters.tsx';
import type { FieldMetaMap, ResourceObject } from './types.ts';

export interface DetailCardProps {
  /** i18n key of the card title. */
  title: string;
  object: ResourceObject;
  /** `actions.GET` of the resource. */
  meta: FieldMetaMap;
  /** Exactly these fields (default every readable field of the metadata). */
  fields?: string[];
  excludes?: string[];
  formatters?: Record<string, CellFormatter>;
  /** i18n keys of labels for fields the metadata does not label (computed ones, shown through a formatter). */
  labels?: Record<string, string>;
}

/** A titled list of label/value pairs, labels from the GET metadata (`AutoDetailCard`). */
export function DetailCard({
  title,
  object,
  meta,
  fields,
  excludes = [],
  formatters = {},
  labels = {},
}: DetailCardProps) {
  const { t, i18n } = useTranslation();
  const names = (fields ?? Object.keys(meta).filter((f) => !meta[f]!.write_only)).filter(
    (f) => !excludes.includes(f) && (f in object || meta[f] || formatters[f]),
  );
  return (
    <Card title={t(title)} data-testid="detail-card">
      <Descriptions
        column={1}
        bordered
        size="small"
        styles={{ label: { width: 200 } }}
        items={names.map((f) => ({
          key: f,
          label: labels[f] ? t(labels[f]) : (meta[f]?.label ?? f),
          children: (formatters[f] ?? formatterForType(meta[f]))({
            row: object,
            field: f,
            value: object[f],
            meta: meta[f],
            lang: i18n.language,
            t,
          }),
        }))}
      />
    </Card>
  );
}
