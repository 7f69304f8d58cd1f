import type { FastifyRequest } from 'fastify';
import { refuseGrant } from '../rbac/roleGrants.ts';
import { rt } from '../../resource/messages.ts';

/**
 * Why the caller may not bind these org roles in the request's org, or undefined when he may:
 * every id must be an org role, and granting it must pass the one rule of role grants
 * (`rbac/roleGrants.ts`: no role holding a permission the caller lacks in this org).
 */
export async function orgRolesCallerCannotBind(req: FastifyRequest, roleIds: string[]): Promise<string | undefined> {
  if (!roleIds.length) return undefined;
  const roles = await req.db
    .selectFrom('rbac_role')
    .select('id')
    .where('id', 'in', roleIds)
    .where('scope', '=', 'org')
    .execute();
  const missing = roleIds.find((id) => !roles.some((r) => r.id === id));
  if (missing) return rt(req.lang, 'invalid_pk', { pk: missing });
  return refuseGrant(req, roleIds, 'org');
}
