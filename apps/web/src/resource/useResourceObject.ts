import { useQuery } from '@tanstack/react-query';
import { http } from '../lib/http.ts';
import { detailUrl } from './resourceUrl.ts';
import type { ResourceObject } from './types.ts';

/** `GET <collection><id>/` (nothing without an id). */
export function useResourceObject(url: string, id: string | undefined | null) {
  const target = id ? detailUrl(url, id) : '';
  return useQuery({
    queryKey: ['resource-object', target],
    queryFn: () => http.get<ResourceObject>(target),
    enabled: Boolean(id),
    staleTime: 0,
  });
}
