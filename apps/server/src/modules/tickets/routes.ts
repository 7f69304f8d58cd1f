import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { currentLicence } from '../xpack/licenceRoutes.ts';
import { registerApplyChoices } from './applyChoices.ts';
import { registerCommandConfirm } from './commandConfirm.ts';
import { registerCommentRoutes } from './commentRoutes.ts';
import { registerLoginConfirm } from './loginConfirmPort.ts';
import { registerLoginAssetConfirm } from './loginAssetConfirm.ts';
import { registerSuperTicketRoutes } from './superTicketRoutes.ts';
import { registerSessionControlRoutes } from './sessionControlRoutes.ts';
import { registerTicketSessionAccess } from './ticketSession.ts';
import { registerComponentReviewRoutes } from './componentReviewRoutes.ts';
import { registerFlowRoutes } from './flowRoutes.ts';
import { registerTicketRoutes } from './ticketRoutes.ts';
import { M, km } from './ticketMessages.ts';
import { registerLoggedModel } from '../../resource/registry.ts';

/**
 * Tickets (issue 19): asking for access and approving it, and the waits of the `review` rules.
 * Every `/api/v1/tickets/` route needs a valid licence and `TICKETS_ENABLED` (403 otherwise).
 */
export function registerTicketsModule(app: FastifyInstance): void {
  app.addHook('preHandler', async (req) => {
    if (!req.url.startsWith('/api/v1/tickets/') || req.method === 'OPTIONS') return;
    if (!(await currentLicence(req)).valid) throw new ApiError(403, { detail: km(req.lang, 'licence_required') });
    if (!(await req.server.deps.settings.get('TICKETS_ENABLED')))
      throw new ApiError(403, { detail: km(req.lang, 'tickets_disabled') });
  });
  // The operate log names tickets and flows (written outside the resource framework) in the reader's language.
  registerLoggedModel({ model: 'ticket', label: M.model_ticket });
  registerLoggedModel({ model: 'ticketflow', label: M.model_ticketflow });
  registerTicketRoutes(app);
  registerApplyChoices(app);
  registerFlowRoutes(app);
  registerCommentRoutes(app);
  registerCommandConfirm(app);
  registerLoginConfirm(app);
  registerLoginAssetConfirm(app);
  registerSuperTicketRoutes(app);
  registerSessionControlRoutes(app);
  registerTicketSessionAccess(app);
  registerComponentReviewRoutes(app);
}
