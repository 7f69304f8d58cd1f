import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BUILTIN_ROLE_LABELS, type BuiltinRoleName, type Profile, type RoleRef } from '@gatehouse/contract';
import type { AuthUser } from '../../http/context.ts';
import { formatDateTime } from '../../http/datetime.ts';
import { toBool } from '../../platform/db/schema.ts';
import { effectivePerms, orgsForView, userBindings } from '../../http/rbac.ts';
import { ALL_JOINED_ORGS, MFA_LEVEL_LABELS, SOURCE_LABELS, labeled } from './labels.ts';
import { mfaProfileFields } from '../authentication/mfa/profileFields.ts';
import { publicKeyFacts } from './profilePublicKey.ts';
import { userResource } from './userResource.ts';

async function roleRefs(req: FastifyRequest, roleIds: string[]): Promise<RoleRef[]> {
  if (!roleIds.length) return [];
  const rows = await req.db
    .selectFrom('rbac_role')
    .select(['id', 'name', 'builtin'])
    .where('id', 'in', roleIds)
    .orderBy('name')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    display_name: toBool(r.builtin) ? (BUILTIN_ROLE_LABELS[r.name as BuiltinRoleName]?.[req.lang] ?? r.name) : r.name,
  }));
}

/** `GET /api/v1/users/profile/`: the user, perms in the current org and orgs per view. */
export async function buildProfile(req: FastifyRequest, user: AuthUser): Promise<Profile & Record<string, unknown>> {
  const tz = req.tz;
  const bindings = await userBindings(req.db, user.id);
  const eff = await effectivePerms(req.db, user.id, req.org.id, bindings);
  const permSet = new Set(eff.perms);
  const names = { global: await req.server.deps.settings.globalOrgName(), allJoined: ALL_JOINED_ORGS[req.lang] };
  const forView = (v: 'console' | 'audit' | 'workbench') => orgsForView(req.db, user.id, v, permSet, names, bindings);
  const [console_orgs, audit_orgs, workbench_orgs] = [
    await forView('console'),
    await forView('audit'),
    await forView('workbench'),
  ];
  const systemRoleIds = bindings.filter((b) => b.scope === 'system').map((b) => b.role_id);
  const orgRoleIds = bindings.filter((b) => b.scope === 'org' && b.org_id === req.org.id).map((b) => b.role_id);
  const expired = new Date(user.date_expired).getTime() <= Date.now();
  const mfa = await mfaProfileFields(req, user.id);
  const key = await req.db
    .selectFrom('users_user')
    .select(['public_key', 'wecom_id', 'dingtalk_id', 'feishu_id'])
    .where('id', '=', user.id)
    .executeTakeFirst();
  const keyFacts = publicKeyFacts(key?.public_key);
  return {
    id: user.id,
    name: user.name,
    username: user.username,
    email: user.email,
    wechat: user.wechat,
    wecom_id: key?.wecom_id ?? null,
    dingtalk_id: key?.dingtalk_id ?? null,
    feishu_id: key?.feishu_id ?? null,
    phone: user.phone ? { code: '', phone: user.phone } : null,
    mfa_level: labeled(mfa.mfa_level, MFA_LEVEL_LABELS, req.lang),
    source: labeled(user.source, SOURCE_LABELS, req.lang),
    created_by: user.created_by,
    updated_by: user.updated_by,
    comment: user.comment,
    date_expired: formatDateTime(user.date_expired, tz)!,
    date_joined: formatDateTime(user.date_joined, tz)!,
    last_login: formatDateTime(user.last_login, tz),
    date_updated: formatDateTime(user.date_updated, tz),
    date_password_last_updated: formatDateTime(user.date_password_last_updated, tz),
    is_superuser: eff.isSuperuser,
    is_org_admin: eff.isOrgAdmin,
    is_service_account: toBool(user.is_service_account),
    is_valid: toBool(user.is_active) && !expired,
    is_expired: expired,
    is_active: toBool(user.is_active),
    is_otp_secret_key_bound: mfa.is_otp_secret_key_bound,
    can_public_key_auth: true,
    mfa_enabled: mfa.mfa_enabled,
    mfa_force_enabled: mfa.mfa_force_enabled,
    need_update_password: toBool(user.need_update_password),
    is_first_login: toBool(user.is_first_login),
    login_blocked: mfa.login_blocked,
    groups: [],
    system_roles: await roleRefs(req, systemRoleIds),
    org_roles: await roleRefs(req, orgRoleIds),
    ...keyFacts,
    guide_url: '',
    receive_backends: ['site_msg'],
    console_orgs,
    audit_orgs,
    workbench_orgs,
    perms: eff.perms,
  };
}

export function registerProfileRoutes(app: FastifyInstance): void {
  app.get('/api/v1/users/profile/', { config: { orgFallback: true, describe: userResource } }, async (req) =>
    buildProfile(req, req.user!),
  );
}
