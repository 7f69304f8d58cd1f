import { useEffect, useMemo, useState } from 'react';
import { Select } from 'antd';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { HttpError, http } from '../lib/http.ts';
import type { Page, ResourceObject } from './types.ts';
import { objectName } from './values.ts';

export interface SelectOption {
  value: string;
  label: string;
}

export type OptionLabel = (o: ResourceObject) => string;

export interface RemoteSelectProps {
  url: string;
  multiple?: boolean;
  value?: string | string[] | null;
  onChange?(value: string | string[] | null): void;
  /** Options already known (the object's current values), so their labels show before loading. */
  seed?: SelectOption[];
  optionLabel?: OptionLabel;
  disabled?: boolean;
  placeholder?: string;
  id?: string;
}

const PAGE_SIZE = 10;
const defaultLabel: OptionLabel = (o) => objectName(o);

/**
 * A select over a list URL: remote search, 10 per page, more on scroll,
 * tags collapse past 10; it disables itself when the server answers 403.
 */
export function RemoteSelect({
  url,
  multiple,
  value,
  onChange,
  seed = [],
  optionLabel = defaultLabel,
  disabled,
  placeholder,
  id,
}: RemoteSelectProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [typed, setTyped] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed), 300);
    return () => clearTimeout(timer);
  }, [typed]);

  const query = useInfiniteQuery({
    queryKey: ['remote-options', url, search],
    queryFn: ({ pageParam }) =>
      http.get<Page<ResourceObject> | ResourceObject[]>(url, {
        params: { search, offset: pageParam, limit: PAGE_SIZE },
      }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      if (Array.isArray(last)) return undefined;
      const loaded = pages.length * PAGE_SIZE;
      return loaded < last.count ? loaded : undefined;
    },
    staleTime: 10_000,
  });
  const forbidden = query.error instanceof HttpError && query.error.status === 403;

  // Chosen ids the seed does not name (a field holding bare ids, e.g. a job's assets): their labels
  // come in one request (`?ids=`), so the select shows names rather than ids.
  const chosen = value == null ? [] : Array.isArray(value) ? value : [value];
  const unnamed = chosen.filter((v) => !seed.some((o) => o.value === v)).sort();
  const named = useQuery({
    queryKey: ['remote-labels', url, unnamed],
    queryFn: () =>
      http.get<Page<ResourceObject> | ResourceObject[]>(url, {
        params: { ids: unnamed.join(','), limit: unnamed.length, offset: 0 },
      }),
    enabled: unnamed.length > 0,
    staleTime: 60_000,
  });

  const options = useMemo(() => {
    const out = new Map<string, SelectOption>();
    for (const o of seed) out.set(o.value, o);
    const pages = [...(query.data?.pages ?? []), ...(named.data ? [named.data] : [])];
    for (const page of pages) {
      for (const row of Array.isArray(page) ? page : page.results)
        out.set(String(row.id), { value: String(row.id), label: optionLabel(row) });
    }
    return [...out.values()];
  }, [seed, query.data, named.data, optionLabel]);

  return (
    <Select
      id={id}
      mode={multiple ? 'multiple' : undefined}
      showSearch={{ filterOption: false, onSearch: setTyped }}
      allowClear
      value={value ?? (multiple ? [] : undefined)}
      onChange={(v) => onChange?.((v as string | string[] | undefined) ?? null)}
      options={options}
      loading={query.isFetching}
      disabled={disabled || forbidden}
      placeholder={forbidden ? t('resource.select.forbidden') : placeholder}
      maxTagCount={10}
      onPopupScroll={(e) => {
        const el = e.currentTarget;
        if (el.scrollTop + el.clientHeight >= el.scrollHeight - 40 && query.hasNextPage && !query.isFetchingNextPage)
          void query.fetchNextPage();
      }}
      data-forbidden={forbidden || undefined}
    />
  );
}
