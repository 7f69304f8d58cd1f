import type { FastifyInstance } from 'fastify';
import type { CurrentOrg } from '@gatehouse/contract';
import { registerResource } from '../../resource/routes.ts';
import { orgResource } from './orgResource.ts';
import { pick } from '../../resource/describe.ts';

/** `GET /api/v1/orgs/orgs/current/`. */
export function registerCurrentOrgRoutes(app: FastifyInstance): void {
  const describe = pick(orgResource, ['id', 'name', 'comment'], { is_default: 'boolean', is_root: 'boolean' });
  app.get('/api/v1/orgs/orgs/current/', { config: { describe } }, async (req): Promise<CurrentOrg> => {
    const row = req.org.is_root
      ? undefined
      : await req.db.selectFrom('orgs_organization').select('comment').where('id', '=', req.org.id).executeTakeFirst();
    return {
      id: req.org.id,
      name: req.org.name,
      is_default: req.org.is_default,
      is_root: req.org.is_root,
      comment: row?.comment ?? '',
    };
  });
  registerResource(app, orgResource);
}
