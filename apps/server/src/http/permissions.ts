import type { FastifyRequest } from 'fastify';
import { hasPermission } from '@gatehouse/contract';
import { permissionDenied } from './errors.ts';
import { effectivePerms, type EffectivePerms } from './rbac.ts';

const cache = new WeakMap<FastifyRequest, Promise<EffectivePerms>>();

/** The caller's permissions in the request's organisation, computed once per request. */
export function requestPerms(req: FastifyRequest): Promise<EffectivePerms> {
  let p = cache.get(req);
  if (!p) {
    p = req.user
      ? effectivePerms(req.db, req.user.id, req.org.id)
      : Promise.resolve({ perms: [], isSuperuser: false, isOrgAdmin: false });
    cache.set(req, p);
  }
  return p;
}

export async function can(req: FastifyRequest, required: string | string[]): Promise<boolean> {
  const eff = await requestPerms(req);
  return eff.isSuperuser || hasPermission(eff.perms, required);
}

/** Throws the contract's 403 unless the caller holds the permission(s) in the current org. */
export async function requirePerm(req: FastifyRequest, required: string | string[]): Promise<void> {
  if (!(await can(req, required))) throw permissionDenied(req);
}
