import type { FastifyInstance } from 'fastify';
import { registerResource } from '../../resource/routes.ts';
import { registerAccountActionRoutes } from './accountActionRoutes.ts';
import { accountResource } from './accountResource.ts';
import { registerSecretRoutes } from './secretRoutes.ts';
import { templateResource } from './templateResource.ts';
import { registerAccountTaskRoutes } from './verify.ts';
import { registerVirtualAccountRoutes } from './virtualAccounts.ts';
import { registerVaultRoutes } from './vault/vaultRoutes.ts';
import { provideAssetAccounts } from '../assets/assetAccountsPort.ts';
import { accountsOfAsset, createAssetAccounts } from './assetAccounts.ts';
import { pick } from '../../resource/describe.ts';

/** The account vault (issue 14): accounts, their secrets and history, templates, virtual accounts, tests. */
export function registerAccountsModule(app: FastifyInstance): void {
  provideAssetAccounts(app, { create: createAssetAccounts, ofAsset: accountsOfAsset });
  registerAccountActionRoutes(app);
  registerAccountTaskRoutes(app);
  registerResource(app, accountResource);
  registerResource(app, templateResource);
  registerSecretRoutes(app);
  registerVirtualAccountRoutes(app);
  registerVaultRoutes(app);
  // su_from of templates: the other templates of the org.
  app.get(
    '/api/v1/accounts/account-templates/su-from-account-templates/',
    {
      config: { perm: 'accounts.view_accounttemplate', describe: pick(templateResource, ['id', 'name', 'username']) },
    },
    async (req) => {
      const self = (req.query as { template_id?: string }).template_id;
      let q = req.db
        .selectFrom('accounts_accounttemplate')
        .select(['id', 'name', 'username'])
        .where('org_id', '=', req.org.id);
      if (self) q = q.where('id', '!=', self);
      return q.orderBy('name').execute();
    },
  );
}
