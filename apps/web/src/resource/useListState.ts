import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { dateRangeQuery, defaultDateRange, type DateRange } from './dateRange.ts';
import { SEARCH_KEY, isSearchKey, queryToTags, tagsToQuery, type FilterOption } from './searchTags.ts';
import { readPageSize, savePageSize } from './tableConfig.ts';
import type { FilterTag, Query } from './types.ts';

export interface ListStateOptions {
  options: FilterOption[];
  /** Mirror the search tags into the page address (and read them back on load). */
  urlQuery: boolean;
  hasDatePicker: boolean;
  extraQuery?: Query;
}

/** Address keys that are never a filter option: the tab, the order, the free-text search. */
const OPTION_FREE_KEYS = new Set(['activeTab', 'order', SEARCH_KEY]);

/**
 * Paging, ordering, search tags and date range of one list, and the query they make. With
 * `urlQuery` the address is the source of the tags and keeps the order, so a reload or a shared
 * link shows the same rows.
 */
export function useListState({ options, urlQuery, hasDatePicker, extraQuery }: ListStateOptions) {
  const [params, setParams] = useSearchParams();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSizeState] = useState(readPageSize);
  const [order, setOrderState] = useState<string | undefined>(() =>
    urlQuery ? (params.get('order') ?? undefined) : undefined,
  );
  const [localTags, setLocalTags] = useState<FilterTag[]>([]);
  const [dateRange, setDateRangeState] = useState<DateRange>(() => defaultDateRange());

  const tags = useMemo(
    () => (urlQuery ? queryToTags(params, options) : localTags),
    [urlQuery, params, options, localTags],
  );

  const setTags = useCallback(
    (next: FilterTag[]) => {
      setPage(1);
      if (!urlQuery) return setLocalTags(next);
      setParams(
        (prev) => {
          const kept = [...prev.entries()].filter(([k]) => !isSearchKey(k, options));
          return new URLSearchParams([...kept, ...Object.entries(tagsToQuery(next))]);
        },
        { replace: true },
      );
    },
    [urlQuery, setParams, options],
  );

  const setPageSize = useCallback((size: number) => {
    savePageSize(size);
    setPageSizeState(size);
    setPage(1);
  }, []);

  const setOrder = useCallback(
    (next: string | undefined) => {
      setOrderState(next);
      setPage(1);
      if (!urlQuery) return;
      setParams(
        (prev) => {
          const q = new URLSearchParams(prev);
          if (next) q.set('order', next);
          else q.delete('order');
          return q;
        },
        { replace: true },
      );
    },
    [urlQuery, setParams],
  );

  const setDateRange = useCallback((range: DateRange) => {
    setDateRangeState(range);
    setPage(1);
  }, []);

  /** Everything but paging: what an export of "this table" sends. */
  const tableQuery: Query = useMemo(() => {
    const q: Query = { ...extraQuery, ...tagsToQuery(tags) };
    if (order) q.order = order;
    if (hasDatePicker) Object.assign(q, dateRangeQuery(dateRange));
    return q;
  }, [extraQuery, tags, order, hasDatePicker, dateRange]);

  const query: Query = useMemo(
    () => ({ display: '1', draw: '1', ...tableQuery, offset: String((page - 1) * pageSize), limit: String(pageSize) }),
    [tableQuery, page, pageSize],
  );

  return {
    page,
    setPage,
    pageSize,
    setPageSize,
    order,
    setOrder,
    tags,
    setTags,
    dateRange,
    setDateRange,
    tableQuery,
    query,
    hasFilter: tags.length > 0,
    /**
     * Whether the query may change once the filter options are known: the address holds a key that
     * could be a filter (`?name=x`). Otherwise the list need not wait for the options (its metadata).
     */
    needsOptions: urlQuery && [...params.keys()].some((k) => !OPTION_FREE_KEYS.has(k)),
  };
}

export type ListState = ReturnType<typeof useListState>;
