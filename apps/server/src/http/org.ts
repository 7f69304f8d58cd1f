import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { DEFAULT_ORG_ID, GLOBAL_ORG_NAME, ORG_COOKIE, ORG_HEADER, ROOT_ORG_ID } from '@gatehouse/contract';
import { ApiError } from './errors.ts';
import { effectivePerms, userBindings } from './rbac.ts';
import type { DB } from '../platform/db/schema.ts';
import type { OrgContext } from './context.ts';
import { catalogue, tr } from '../platform/i18n/catalogue.ts';
import type httpMessages from '../platform/i18n/locales/en/http.json';
const M = catalogue<typeof httpMessages>('http');

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function rootOrg(displayName = GLOBAL_ORG_NAME): OrgContext {
  return { id: ROOT_ORG_ID, name: displayName, is_root: true, is_default: false };
}

async function loadOrg(db: Kysely<DB>, value: string): Promise<OrgContext | undefined> {
  const column = UUID_RE.test(value) ? 'id' : 'name';
  const row = await db
    .selectFrom('orgs_organization')
    .select(['id', 'name'])
    .where(column, '=', value)
    .executeTakeFirst();
  return row ? { id: row.id, name: row.name, is_root: false, is_default: row.id === DEFAULT_ORG_ID } : undefined;
}

const MSG = {
  notMember: M.notMember,
};

/**
 * Whether the caller may work in `org`: a member (an org role binding there), or a holder of a
 * system role that opens the console or the audit view (those work in every organisation, as in
 * `orgsForView`); the global org needs `orgs.view_rootorg` (or `orgs.view_alljoinedorg`, the
 * workbench's "All organizations") at system level.
 */
async function mayEnter(req: FastifyRequest, org: OrgContext): Promise<boolean> {
  const user = req.user!;
  const bindings = await userBindings(req.db, user.id);
  if (!org.is_root && bindings.some((b) => b.scope === 'org' && b.org_id === org.id)) return true;
  const system = await effectivePerms(req.db, user.id, ROOT_ORG_ID, bindings);
  if (system.isSuperuser) return true;
  const held = new Set(system.perms);
  if (org.is_root) return held.has('orgs.view_rootorg') || held.has('orgs.view_alljoinedorg');
  return held.has('rbac.view_console') || held.has('rbac.view_audit');
}

/**
 * The request's organisation: `?oid=`, then the `X-JMS-ORG` header, the
 * cookie, the session, then DEFAULT. `default` and `root` (any case) and org names are accepted;
 * anything unknown falls back to DEFAULT.
 *
 * An org named by the caller (`?oid`, header, cookie) must be one the caller may work in, or the
 * request is refused with 403 `org_not_member` before any route runs: no route can be made to
 * answer about another organisation (its name, whether an id exists there). DEFAULT is never
 * refused: it is what a caller who names nothing gets anyway. Pages (outside `/api/` and `/ws/`)
 * and a route declaring
 * `config: { orgFallback: true }` (the profile, which tells the console which orgs it may use)
 * gets DEFAULT instead of the refusal.
 */
export async function resolveOrg(req: FastifyRequest, globalOrgName: string): Promise<OrgContext> {
  const query = req.query as Record<string, unknown> | undefined;
  const named = [
    typeof query?.oid === 'string' ? query.oid : undefined,
    req.headers[ORG_HEADER.toLowerCase()] as string | undefined,
    req.cookies[ORG_COOKIE],
  ];
  const candidates = [...named, req.session?.data.oid];
  const index = candidates.findIndex((c) => typeof c === 'string' && c.trim() !== '');
  const raw = index >= 0 ? candidates[index]!.trim() : undefined;
  const fallback = async (): Promise<OrgContext> =>
    (await loadOrg(req.db, DEFAULT_ORG_ID)) ?? {
      id: DEFAULT_ORG_ID,
      name: 'DEFAULT',
      is_root: false,
      is_default: true,
    };
  if (!raw) return fallback();
  const lower = raw.toLowerCase();
  let org: OrgContext;
  if (lower === 'root' || raw === ROOT_ORG_ID) org = rootOrg(globalOrgName);
  else if (lower === 'default') return fallback();
  else org = (await loadOrg(req.db, raw)) ?? (await fallback());
  if (org.id === DEFAULT_ORG_ID || !req.user || (await mayEnter(req, org))) return org;
  const refusable = req.url.startsWith('/api/') || req.url.startsWith('/ws/');
  if (index >= named.length || !refusable || req.routeOptions.config?.orgFallback) return fallback();
  throw new ApiError(403, {
    // What the caller sent, never the name of an org they may not see.
    detail: tr(req.lang, MSG.notMember, { org: raw }),
    code: 'org_not_member',
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A foreign org named by the caller falls back to DEFAULT instead of a 403 (see resolveOrg). */
    orgFallback?: boolean;
  }
}
