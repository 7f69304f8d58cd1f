import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { DEFAULT_ORG_ID, GLOBAL_ORG_NAME, ORG_COOKIE, ORG_HEADER, ROOT_ORG_ID } from '@gatehouse/contract';
import type { DB } from '../platform/db/schema.ts';
import type { OrgContext } from './context.ts';

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

/**
 * The request's organisation: `?oid=`, then the `X-JMS-ORG` header, the
 * cookie, the session, then DEFAULT. `default` and `root` (any case) and org names are accepted;
 * anything unknown falls back to DEFAULT.
 */
export async function resolveOrg(req: FastifyRequest, globalOrgName: string): Promise<OrgContext> {
  const query = req.query as Record<string, unknown> | undefined;
  const candidates = [
    typeof query?.oid === 'string' ? query.oid : undefined,
    req.headers[ORG_HEADER.toLowerCase()] as string | undefined,
    req.cookies[ORG_COOKIE],
    req.session?.data.oid,
  ];
  const raw = candidates.find((c) => typeof c === 'string' && c.trim() !== '')?.trim();
  const fallback = async (): Promise<OrgContext> =>
    (await loadOrg(req.db, DEFAULT_ORG_ID)) ?? {
      id: DEFAULT_ORG_ID,
      name: 'DEFAULT',
      is_root: false,
      is_default: true,
    };
  if (!raw) return fallback();
  const lower = raw.toLowerCase();
  if (lower === 'root' || raw === ROOT_ORG_ID) return rootOrg(globalOrgName);
  if (lower === 'default') return fallback();
  return (await loadOrg(req.db, raw)) ?? fallback();
}
