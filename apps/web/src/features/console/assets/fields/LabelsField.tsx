import { useMemo } from 'react';
import { Select, Tag, type FormRule } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { http } from '../../../../lib/http.ts';
import type { Page, ResourceObject } from '../../../../resource/types.ts';
import { badLabels, labelColour, parseLabel } from './labelParse.ts';

const LABELS_URL = '/api/v1/assets/labels/';

/** The org's labels (for names of chosen ids, and suggestions). */
export function useLabels() {
  return useQuery({
    queryKey: ['asset-labels-all'],
    queryFn: () => http.get<Page<ResourceObject>>(LABELS_URL, { params: { limit: 1000, offset: 0 } }),
    staleTime: 10_000,
  });
}

/** Rejects typed labels that are not `name:value`. */
export function labelsRule(t: TFunction, knownIds: () => ReadonlySet<string>): FormRule {
  return {
    validator: async (_, v: string[] | undefined) => {
      if (badLabels(v ?? [], knownIds()).length) throw new Error(t('assets.label.formatError'));
    },
  };
}

export interface LabelsFieldProps {
  value?: string[];
  onChange?(value: string[]): void;
  disabled?: boolean;
}

/** Labels as `name:value` tags: existing labels by id, new ones typed (created by the server). */
export function LabelsField({ value = [], onChange, disabled }: LabelsFieldProps) {
  const { t } = useTranslation();
  const labels = useLabels();
  const options = useMemo(
    () =>
      (labels.data?.results ?? []).map((l) => ({ value: String(l.id), label: `${String(l.name)}:${String(l.value)}` })),
    [labels.data],
  );
  const byId = new Map(options.map((o) => [o.value, o.label]));
  return (
    <Select
      mode="tags"
      value={value}
      disabled={disabled}
      options={options}
      optionFilterProp="label"
      placeholder={t('assets.label.placeholder')}
      data-testid="labels-field"
      onChange={(v: string[]) => onChange?.(v.map((x) => x.trim()).filter(Boolean))}
      tagRender={({ value: v, closable, onClose }) => {
        const text = byId.get(String(v)) ?? String(v);
        const pair = parseLabel(text);
        return (
          <Tag
            color={pair ? labelColour(pair.name) : 'error'}
            closable={closable}
            onClose={onClose}
            style={{ marginInlineEnd: 4 }}
          >
            {text}
          </Tag>
        );
      }}
    />
  );
}
