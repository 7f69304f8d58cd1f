import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { http } from '../../../../lib/http.ts';

export type RoleScope = 'system' | 'org';

export const isRoleScope = (v: unknown): v is RoleScope => v === 'system' || v === 'org';

/** The collection of one scope's roles. */
export const rolesUrl = (scope: RoleScope) => `/api/v1/rbac/${scope}-roles/`;
export const bindingsUrl = (scope: RoleScope) => `/api/v1/rbac/${scope}-role-bindings/`;

/**
 * The scope of the role being shown: `?scope=` when the address has it,
 * else asked of `GET /api/v1/rbac/roles/<id>/`; undefined while unknown.
 */
export function useRoleScope(id: string | undefined): { scope: RoleScope | undefined; error: unknown } {
  const [params] = useSearchParams();
  const given = params.get('scope');
  const q = useQuery({
    queryKey: ['role-scope', id],
    queryFn: () => http.get<{ scope: RoleScope | { value: RoleScope } }>(`/api/v1/rbac/roles/${id}/`),
    enabled: !isRoleScope(given) && Boolean(id),
  });
  if (isRoleScope(given)) return { scope: given, error: undefined };
  const s = q.data?.scope;
  const scope = typeof s === 'object' && s ? s.value : s;
  return { scope: isRoleScope(scope) ? scope : id ? undefined : 'org', error: q.error };
}
