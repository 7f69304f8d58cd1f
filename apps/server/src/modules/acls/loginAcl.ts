import type { FastifyRequest } from 'fastify';
import { am } from './aclMessages.ts';
import { decide, systemTimeZone } from './matcher/rules.ts';
import { loadAclRules } from './ruleLoader.ts';
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
  const rules = await loadAclRules(db, 'login');
  if (!rules.length) return undefined;
  const [user] = await loadUsers(db, { ids: [userId] });
  if (!user) return undefined;
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
