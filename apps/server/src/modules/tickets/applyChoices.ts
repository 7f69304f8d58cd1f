import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { containsCi } from '../../resource/query.ts';
import { km } from './ticketMessages.ts';
import { shape } from '../../resource/describe.ts';

/**
 * What the asset request form offers: the current org's assets and nodes by name, 10 at a time
 * (`tickets.view_ticket`). The asset suggestions of the assets module need the view permission too,
 * which a plain member lacks; someone asking for access must be able to name what they ask for,
 * within an org they belong to (the request's org is checked on the way in), never the global org.
 */
const B = '/api/v1/tickets/apply-asset-tickets';
const LIMIT = 10;

function orgOf(req: FastifyRequest): string {
  if (req.org.id === ROOT_ORG_ID) throw new ApiError(400, { detail: km(req.lang, 'root_org') });
  return req.org.id;
}

export function registerApplyChoices(app: FastifyInstance): void {
  const view = { config: { perm: 'tickets.view_ticket' } };
  app.get(
    `${B}/assets/`,
    { config: { ...view.config, describe: shape('asset', { id: 'string', name: 'string', address: 'string' }) } },
    async (req) => {
      const org = orgOf(req);
      const search = (req.query as Record<string, string | undefined>).search?.trim();
      let q = req.db.selectFrom('assets_asset').select(['id', 'name', 'address']).where('org_id', '=', org);
      if (search)
        q = q.where((eb) =>
          eb.or([containsCi({ req, db: req.db }, 'name', search), containsCi({ req, db: req.db }, 'address', search)]),
        );
      return q.orderBy('name').limit(LIMIT).execute();
    },
  );
  app.get(
    `${B}/nodes/`,
    { config: { ...view.config, describe: shape('node', { id: 'string', name: 'string', key: 'string' }) } },
    async (req) => {
      const org = orgOf(req);
      const search = (req.query as Record<string, string | undefined>).search?.trim();
      let q = req.db.selectFrom('assets_node').select(['id', 'value as name', 'key']).where('org_id', '=', org);
      if (search) q = q.where(containsCi({ req, db: req.db }, 'value', search));
      return q.orderBy('value').orderBy('key').limit(LIMIT).execute();
    },
  );
}
