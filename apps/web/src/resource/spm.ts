import { http } from '../lib/http.ts';

/** Caches a list of ids on the server for 300 s and returns the key (`spm`) naming them. */
export async function cacheResources(ids: readonly string[]): Promise<string> {
  const { spm } = await http.post<{ spm: string }>('/api/v1/common/resources/cache/', { resources: ids });
  return spm;
}
