import type { FastifyRequest } from 'fastify';
import { toBool } from '../../platform/db/schema.ts';
import { am } from './aclMessages.ts';
import { decide, systemTimeZone, type AclRule } from './matcher/rules.ts';
import { loadUsers } from './subjects.ts';

/**
 * The login rules at sign-in (after the password and the user's state, before
 * a session or token exists): the first rule that applies decides. `reject` refuses; `review`
 * makes the sign-in wait on a login-confirm ticket (authentication/loginConfirm.ts; refused with its
 * own message when no ticket module is registered); `accept` or no rule lets
 * the sign-in go on. Time periods are read in the `TIME_ZONE` setting's zone (the system's by default).
 */
export type LoginAclRefusal = {
  error: 'acl_not_allow' | 'login_acl_review';
  msg: string;
  ruleId: string;
  /** The rule's recipients (who may approve a `review`). */
  reviewers: string[];
};

export async function checkLoginAcl(req: FastifyRequest, userId: string): Promise<LoginAclRefusal | undefined> {
  const db = req.server.deps.database.db;
  const rows = await db.selectFrom('acls_loginacl').selectAll().where('is_active', '=', true).execute();
  if (!rows.length) return undefined;
  const [user] = await loadUsers(db, { ids: [userId] });
  if (!user) return undefined;
  const reviewers = await db
    .selectFrom('acls_loginacl_reviewers')
    .select(['acl_id', 'user_id'])
    .where(
      'acl_id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  const rules = rows.map((r) => ({
    id: r.id,
    name: r.name,
    priority: Number(r.priority),
    action: r.action as AclRule['action'],
    is_active: toBool(r.is_active),
    users: JSON.parse(r.users) as AclRule['users'],
    rules: JSON.parse(r.rules) as AclRule['rules'],
    reviewers: reviewers.filter((x) => x.acl_id === r.id).map((x) => x.user_id),
  }));
  const zone = String((await req.server.deps.settings.get('TIME_ZONE')) || systemTimeZone());
  const decision = decide(rules, { user, ip: req.ip, at: new Date(), timeZone: zone });
  if (!decision || decision.action === 'accept' || decision.action === 'warning') return undefined;
  if (decision.action === 'review')
    return {
      error: 'login_acl_review',
      msg: am(req.lang, 'login_acl_review'),
      ruleId: decision.rule.id,
      reviewers: decision.rule.reviewers,
    };
  return { error: 'acl_not_allow', msg: am(req.lang, 'login_acl_reject'), ruleId: decision.rule.id, reviewers: [] };
}
