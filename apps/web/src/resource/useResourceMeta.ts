import { useQuery } from '@tanstack/react-query';
import { http } from '../lib/http.ts';
import { usePrefetchWhen } from '../lib/usePrefetchWhen.ts';
import { withQuery } from './resourceUrl.ts';
import type { ResourceMeta } from './types.ts';

/** Tables ask `OPTIONS <url>?draw=1&display=1`; forms and detail cards ask `OPTIONS <url>`. */
export function metaUrl(url: string, draw = false): string {
  return draw ? withQuery(url, { draw: '1', display: '1' }) : url;
}

export async function fetchResourceMeta(url: string): Promise<ResourceMeta> {
  return (await http.raw<ResourceMeta>('OPTIONS', url)).data;
}

/** The OPTIONS metadata of a resource, fetched once per exact URL for the whole session. */
export function useResourceMeta(url: string, opts: { draw?: boolean; enabled?: boolean } = {}) {
  const full = metaUrl(url, opts.draw);
  usePrefetchWhen(opts.enabled ?? true, ['resource-meta', full], () => fetchResourceMeta(full));
  return useQuery({
    queryKey: ['resource-meta', full],
    queryFn: () => fetchResourceMeta(full),
    staleTime: Infinity,
    gcTime: Infinity,
    enabled: opts.enabled ?? true,
  });
}
