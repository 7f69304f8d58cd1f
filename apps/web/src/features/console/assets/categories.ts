import type { CategoryValue } from '@gatehouse/contract';

/** Where each asset category's pages and API live (console-reference §3.0, api-contract §4.3). */
export interface AssetCategoryRoute {
  category: CategoryValue;
  /** Route segment, e.g. `hosts`. */
  path: string;
  /** The API collection, e.g. `/api/v1/assets/hosts/`. */
  url: string;
  /** Route name stem: `Host` → HostCreate / HostUpdate. */
  name: string;
}

export const ASSET_CATEGORY_ROUTES: AssetCategoryRoute[] = [
  { category: 'host', path: 'hosts', url: '/api/v1/assets/hosts/', name: 'Host' },
  { category: 'database', path: 'databases', url: '/api/v1/assets/databases/', name: 'Database' },
  { category: 'device', path: 'devices', url: '/api/v1/assets/devices/', name: 'Device' },
  { category: 'cloud', path: 'clouds', url: '/api/v1/assets/clouds/', name: 'Cloud' },
  { category: 'web', path: 'webs', url: '/api/v1/assets/webs/', name: 'Web' },
  { category: 'gpt', path: 'gpts', url: '/api/v1/assets/gpts/', name: 'GPT' },
  { category: 'custom', path: 'customs', url: '/api/v1/assets/customs/', name: 'Custom' },
];

export const ASSETS_BASE = '/console/assets';
export const ASSET_LIST_PATH = `${ASSETS_BASE}/assets/`;
export const assetDetailPath = (id: string) => `${ASSETS_BASE}/assets/${id}`;

/** The category segment of an asset (`{value}` or a plain string), e.g. `hosts`. */
export function categoryPath(category: unknown): string {
  const v = category && typeof category === 'object' ? (category as { value?: unknown }).value : category;
  return ASSET_CATEGORY_ROUTES.find((c) => c.category === v)?.path ?? 'hosts';
}

/** The update page of an asset (its form reads the platform from the asset). */
export function assetUpdatePath(asset: { id: string; category?: unknown }): string {
  return `${ASSETS_BASE}/${categoryPath(asset.category)}/${asset.id}/update`;
}
