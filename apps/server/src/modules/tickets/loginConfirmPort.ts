import type { FastifyInstance } from 'fastify';
import { SYSTEM_ORG_ID as SYSTEM_ORG } from '@gatehouse/contract';
import { loginReviewer, setLoginReviewer, type LoginReviewPort } from '../authentication/loginConfirm.ts';
import { levelsFor } from './assignees.ts';
import { notifyAssignees } from './notify.ts';
import { actOn } from './ticketActions.ts';
import { km } from './ticketMessages.ts';
import { createTicket } from './ticketStore.ts';

/**
 * The tickets behind login review (authentication/loginConfirm.ts): a login-confirm ticket
 * assigned to the login rule's recipients. Login rules are outside orgs, so the ticket belongs to
 * the system org (as other records of objects outside orgs); ticket lists are not per org anyway.
 */
export function registerLoginConfirm(app: FastifyInstance): void {
  const db = app.deps.database.db;
  const port: LoginReviewPort = {
    async open(req, r) {
      const user = await db
        .selectFrom('users_user')
        .select(['name', 'username'])
        .where('id', '=', r.userId)
        .executeTakeFirstOrThrow();
      const levels = await levelsFor(db, SYSTEM_ORG, 'login_confirm', r.reviewers);
      const ticket = await createTicket(db, {
        type: 'login_confirm',
        title: km('en', 'title_login_confirm', { user: `${user.name}(${user.username})` }),
        orgId: SYSTEM_ORG,
        applicantId: r.userId,
        createdBy: user.username,
        meta: {
          apply_login_ip: req.ip,
          apply_login_city: '',
          apply_login_datetime: new Date().toISOString(),
          apply_from_acl: r.ruleId,
        },
        levels,
      });
      await notifyAssignees(app, ticket, levels[0] ?? []);
      return ticket.id;
    },
    async state(_req, ticketId) {
      const row = await db.selectFrom('tickets_ticket').select('state').where('id', '=', ticketId).executeTakeFirst();
      return row?.state ?? 'closed';
    },
    async close(req, ticketId, userId) {
      const ticket = await db.selectFrom('tickets_ticket').selectAll().where('id', '=', ticketId).executeTakeFirst();
      if (!ticket || ticket.applicant_id !== userId) return;
      await actOn(app, ticket, { id: userId, display: ticket.applicant_display, lang: req.lang }, 'close').catch(
        () => undefined,
      );
    },
  };
  setLoginReviewer(port);
  app.addHook('onClose', async () => {
    if (loginReviewer() === port) setLoginReviewer(undefined);
  });
}
