import { assetCategory } from '@gatehouse/contract';

/** The platform picker's recent picks: the last 8, newest first, in localStorage `RecentPlatforms`. */
export const RECENT_KEY = 'RecentPlatforms';
export const RECENT_MAX = 8;

export interface RecentPlatform {
  id: number;
  name: string;
  category: string;
}

function valid(x: unknown): x is RecentPlatform {
  const r = x as RecentPlatform;
  return (
    Boolean(r) &&
    typeof r === 'object' &&
    typeof r.id === 'number' &&
    typeof r.name === 'string' &&
    typeof r.category === 'string'
  );
}

export function readRecentPlatforms(storage: Pick<Storage, 'getItem'> = localStorage): RecentPlatform[] {
  try {
    const raw = JSON.parse(storage.getItem(RECENT_KEY) ?? '[]') as unknown;
    return Array.isArray(raw) ? raw.filter(valid).slice(0, RECENT_MAX) : [];
  } catch {
    return [];
  }
}

/** Puts a pick first (once), keeps at most 8, saves and returns the new list. */
export function pushRecentPlatform(
  p: RecentPlatform,
  storage: Pick<Storage, 'getItem' | 'setItem'> = localStorage,
): RecentPlatform[] {
  const next = [
    { id: p.id, name: p.name, category: p.category },
    ...readRecentPlatforms(storage).filter((r) => r.id !== p.id),
  ].slice(0, RECENT_MAX);
  storage.setItem(RECENT_KEY, JSON.stringify(next));
  return next;
}

/** The create page of a platform, with the selected node if any. */
export function createPath(category: string, platformId: number, nodeId?: string): string {
  const q = new URLSearchParams({ platform: String(platformId) });
  if (nodeId) q.set('node', nodeId);
  return `/console/assets/${assetCategory(category).segment}/create?${q.toString()}`;
}
