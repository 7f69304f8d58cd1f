import { ASSET_CATEGORIES, assetCategory, assetsApiPath, type CategoryValue } from '@gatehouse/contract';

/** Where each asset category's pages and API live, from the contract's table of categories. */
export interface AssetCategoryRoute {
  category: CategoryValue;
  /** Route segment, e.g. `hosts`. */
  path: string;
  /** The API collection, e.g. `/api/v1/assets/hosts/`. */
  url: string;
  /** Route name stem: `Host` → HostCreate / HostUpdate. */
  name: string;
}

export const ASSET_CATEGORY_ROUTES: AssetCategoryRoute[] = ASSET_CATEGORIES.map((c) => ({
  category: c.value,
  path: c.segment,
  url: assetsApiPath(c.value),
  name: c.name,
}));

export const ASSETS_BASE = '/console/assets';
export const ASSET_LIST_PATH = `${ASSETS_BASE}/assets/`;
export const assetDetailPath = (id: string) => `${ASSETS_BASE}/assets/${id}`;

/** The category segment of an asset (`{value}` or a plain string), e.g. `hosts`. */
export function categoryPath(category: unknown): string {
  const v = category && typeof category === 'object' ? (category as { value?: unknown }).value : category;
  return assetCategory(String(v)).segment;
}

/** The update page of an asset (its form reads the platform from the asset). */
export function assetUpdatePath(asset: { id: string; category?: unknown }): string {
  return `${ASSETS_BASE}/${categoryPath(asset.category)}/${asset.id}/update`;
}
