import type { Query } from './types.ts';

/** The permission names a list URL implies (`getResourceFromApiUrl`). */
export interface ResourcePermissionName {
  app: string;
  resource: string;
}

/**
 * `/api/v1/<app>/<resource>/…` → app and resource; the resource drops its dashes and one trailing
 * `s` (`users` → `user`, `account-templates` → `accounttemplate`). An override wins per part.
 */
export function permissionNameFromUrl(
  url: string,
  override: Partial<ResourcePermissionName> = {},
): ResourcePermissionName {
  const path = url.split('?')[0]!;
  const m = /\/api\/v\d+\/([^/]+)\/([^/]+)/.exec(path);
  const app = override.app ?? m?.[1] ?? '';
  const resource = override.resource ?? (m?.[2] ?? '').replace(/-/g, '').replace(/s$/, '');
  return { app, resource };
}

export type ResourceAction = 'add' | 'change' | 'delete' | 'view';

export function permissionFor(name: ResourcePermissionName, action: ResourceAction): string {
  return `${name.app}.${action}_${name.resource}`;
}

/** `<collection><id>/`, keeping the collection's query string (row delete). */
export function detailUrl(url: string, id: string): string {
  const [path, query] = url.split('?');
  const base = path!.endsWith('/') ? path! : `${path}/`;
  return `${base}${id}/${query ? `?${query}` : ''}`;
}

/** The path of a URL without its query. */
export function urlPath(url: string): string {
  return url.split('?')[0]!;
}

/** Appends query values to a URL that may already carry some; empty values are dropped. */
export function withQuery(url: string, query: Query): string {
  const [path, existing] = url.split('?');
  const q = new URLSearchParams(existing);
  for (const [k, v] of Object.entries(query)) if (v !== '' && v !== undefined) q.set(k, v);
  const s = q.toString();
  return s ? `${path}?${s}` : path!;
}

/** The query values a URL carries (e.g. a list embedded with `?group_id=`). */
export function queryOf(url: string): Query {
  return Object.fromEntries(new URLSearchParams(url.split('?')[1] ?? ''));
}
