import { useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * Starts a query's request while the component renders, not after it commits (as `useQuery` does):
 * a page whose first render takes a while (tables, antd styles) has its data on the way meanwhile.
 * The `useQuery` of the same key then finds it in flight or done. Nothing happens when `when` is
 * false or the cache already knows the key (a StrictMode second render does not fetch twice).
 * TanStack's `usePrefetchQuery` without the condition.
 */
export function usePrefetchWhen(when: boolean, queryKey: QueryKey, queryFn: () => Promise<unknown>): void {
  const client = useQueryClient();
  if (when && !client.getQueryState(queryKey)) void client.prefetchQuery({ queryKey, queryFn });
}
