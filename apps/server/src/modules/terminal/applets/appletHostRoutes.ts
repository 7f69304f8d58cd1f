import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../../http/errors.ts';
import { tr } from '../../../platform/i18n/catalogue.ts';
import { toBool } from '../../../platform/db/schema.ts';
import { pick } from '../../../resource/describe.ts';
import { accountResource } from '../../accounts/accountResource.ts';
import { f } from '../../../resource/fields.ts';
import { findVisible, registerResource } from '../../../resource/routes.ts';
import { registerReadOnly } from '../../../resource/readOnlyRoutes.ts';
import type { Choice, ResourceCtx, ResourceDef, Row } from '../../../resource/types.ts';
import { accountsOfAsset, createAssetAccounts } from '../../accounts/assetAccounts.ts';
import { openTaskLog } from '../../ops/taskLog.ts';
import { AM } from './appletMessages.ts';
import { DEPLOY_JOB_TYPE, deploymentHandler, queueDeployment } from './appletDeploy.ts';
import { APPLET_HOSTS_URL, appletHostResource, inSystemOrg } from './appletHostResource.ts';
import { appletResource } from './appletResource.ts';

/**
 * Applet hosts' routes: the resource (appletHostResource.ts), `PUT applet-hosts/<id>/generate-accounts/`
 * and `GET applet-hosts/<id>/accounts/`; publications (`applet-publications/?applet=|host=`, read
 * only) and deployments (`applet-host-deployments/?host=`; `POST {host}` deploys a host,
 * `POST applets/ {hosts, applet_id?}` installs one applet or every active one on hosts), each
 * deployment a job-engine execution whose id is answered as `task` (appletDeploy.ts).
 * Reading needs `terminal.view_applethost` (publications `terminal.view_applet`), acting
 * `terminal.change_applethost`.
 */
const STATUS: Choice[] = (['pending', 'running', 'success', 'failed'] as const).map((v) => ({
  value: v,
  label: AM[`status_${v}`],
}));

const appletRef = (r: Row) => ({ id: r.id, name: r.name, display_name: r.display_name, version: r.version });

export const publicationResource: ResourceDef = {
  model: 'appletpublication',
  app: 'terminal',
  url: '/api/v1/terminal/applet-publications/',
  table: 'terminal_appletpublication',
  label: AM.model_publication,
  orgScoped: false,
  defaultOrder: ['-date_updated'],
  fields: {
    id: f.id(),
    applet: f.fk(AM.field_applet, { table: 'terminal_applet', output: appletRef }, { readOnly: true, filter: true }),
    host: f.fk(AM.field_host, { table: 'assets_asset' }, { readOnly: true, filter: true }),
    status: f.choice(AM.field_status, STATUS, { readOnly: true, filter: true }),
    comment: f.string(AM.field_comment, { readOnly: true }),
    date_created: f.dateCreated(),
    date_updated: f.dateUpdated(),
  },
};

export const deploymentResource: ResourceDef = {
  model: 'applethostdeployment',
  app: 'terminal',
  url: '/api/v1/terminal/applet-host-deployments/',
  table: 'terminal_applethostdeployment',
  label: AM.model_deployment,
  orgScoped: false,
  defaultOrder: ['-date_created'],
  fields: {
    id: f.id(),
    host: f.fk(AM.field_host, { table: 'assets_asset' }, { readOnly: true, filter: true }),
    initial: f.bool(AM.field_initial, { readOnly: true }),
    applet: f.fk(AM.field_applet, { table: 'terminal_applet', output: appletRef }, { readOnly: true }),
    status: f.choice(AM.field_status, STATUS, { readOnly: true, filter: true }),
    comment: f.string(AM.field_comment, { readOnly: true }),
    task: f.string(AM.field_task, { readOnly: true }),
    date_start: f.datetime(AM.field_date_start, { readOnly: true }),
    date_finished: f.datetime(AM.field_date_finished, { readOnly: true }),
    created_by: f.createdBy(),
    date_created: f.dateCreated(),
    date_updated: f.dateUpdated(),
  },
};

type Req = FastifyRequest;
const ctxOf = (req: Req): ResourceCtx => ({ req, db: req.db });

async function hostOf(req: Req, id: unknown): Promise<Row> {
  if (typeof id !== 'string' || !id) throw new ApiError(400, { host: [tr(req.lang, AM.host_not_found, { id: '' })] });
  try {
    return await findVisible(appletHostResource, ctxOf(req), id);
  } catch {
    throw new ApiError(400, { host: [tr(req.lang, AM.host_not_found, { id: id.slice(0, 40) })] });
  }
}

/** One deployment of `host` and its execution; answers the execution's id. */
async function deploy(req: Req, host: Row, appletId: string | null, initial: boolean): Promise<string> {
  const now = new Date().toISOString();
  const id = randomUUID();
  const actor = req.user ? `${req.user.name}(${req.user.username})` : '';
  let task = '';
  await req.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('terminal_applethostdeployment')
      .values({
        id,
        host_id: String(host.id),
        initial,
        status: 'pending',
        applet_id: appletId,
        comment: '',
        task: null,
        date_start: null,
        date_finished: null,
        created_by: actor,
        date_created: now,
        date_updated: now,
      })
      .execute();
    if (!initial) {
      const applets = appletId
        ? [appletId]
        : (await trx.selectFrom('terminal_applet').select('id').where('is_active', '=', true).execute()).map(
            (a) => a.id,
          );
      for (const a of applets) {
        const found = await trx
          .selectFrom('terminal_appletpublication')
          .select('id')
          .where('applet_id', '=', a)
          .where('host_id', '=', String(host.id))
          .executeTakeFirst();
        if (found)
          await trx
            .updateTable('terminal_appletpublication')
            .set({ status: 'pending', comment: '', date_updated: now })
            .where('id', '=', found.id)
            .execute();
        else
          await trx
            .insertInto('terminal_appletpublication')
            .values({
              id: randomUUID(),
              applet_id: a,
              host_id: String(host.id),
              status: 'pending',
              comment: '',
              date_created: now,
              date_updated: now,
            })
            .execute();
      }
    }
    task = await queueDeployment(trx, {
      deploymentId: id,
      hostName: String(host.name),
      creatorId: req.user!.id,
      createdBy: actor,
    });
  });
  await openTaskLog(req.server.deps.cache, task, req.user!.id);
  return task;
}

const PUBLIC_PREFIX = 'jms_';
const PRIVATE_PREFIX = 'js_';
/** Windows local account names are at most 20 characters. */
const WINDOWS_NAME_MAX = 20;

/**
 * Creates the host's accounts (the original's `generate_accounts`): shared ones `jms_<random>` up to
 * `accounts_create_amount`, and with `auto_create_accounts` one `js_<username>` per active user whose
 * name fits a Windows account name; each with a random password, sealed in the vault.
 */
async function generateAccounts(req: Req, host: Row): Promise<number> {
  const ctx = ctxOf(req);
  const h = await req.db
    .selectFrom('terminal_applethost')
    .selectAll()
    .where('asset_id', '=', String(host.id))
    .executeTakeFirst();
  const amount = h?.accounts_create_amount ?? 100;
  const existing = new Set(
    (
      await req.db.selectFrom('accounts_account').select('username').where('asset_id', '=', String(host.id)).execute()
    ).map((a) => a.username),
  );
  const password = () => `${randomBytes(18).toString('base64url')}#1aA`;
  const items: Row[] = [];
  const shared = [...existing].filter((u) => u.startsWith(PUBLIC_PREFIX)).length;
  for (let i = shared; i < amount; i++) {
    let name: string;
    do name = `${PUBLIC_PREFIX}${randomBytes(6).toString('hex')}`;
    while (existing.has(name));
    existing.add(name);
    items.push({ name, username: name, secret_type: 'password', secret: password(), privileged: false });
  }
  if (!h || toBool(h.auto_create_accounts)) {
    const users = await req.db
      .selectFrom('users_user')
      .select('username')
      .where('is_active', '=', true)
      .where('is_service_account', '=', false)
      .execute();
    for (const u of users) {
      const name = `${PRIVATE_PREFIX}${u.username}`;
      if (existing.has(name) || name.length > WINDOWS_NAME_MAX || !/^[A-Za-z0-9_.-]+$/.test(u.username)) continue;
      existing.add(name);
      items.push({ name, username: name, secret_type: 'password', secret: password(), privileged: false });
    }
  }
  if (items.length)
    await req.db.transaction().execute((trx) => createAssetAccounts({ ...ctx, db: trx }, String(host.id), items));
  return items.length;
}

export function registerAppletHostRoutes(app: FastifyInstance): void {
  inSystemOrg(app, [APPLET_HOSTS_URL, deploymentResource.url]);
  registerResource(app, appletHostResource);
  registerReadOnly(app, publicationResource, 'terminal.view_applet');
  registerReadOnly(app, deploymentResource, 'terminal.view_applethost');
  // The engine is registered after this module (modules/index.ts); its handler is set once it exists.
  app.addHook('onReady', async () => {
    app.jobEngine.setKindHandler(DEPLOY_JOB_TYPE, deploymentHandler(app), async (exec) => {
      await app.deps.database.db
        .updateTable('terminal_applethostdeployment')
        .set({ status: 'failed', date_finished: new Date().toISOString() })
        .where('id', '=', exec.job_id)
        .where('status', 'in', ['pending', 'running'])
        .execute();
    });
  });
  app.put(
    `${APPLET_HOSTS_URL}:id/generate-accounts/`,
    { config: { perm: 'terminal.change_applethost' } },
    async (req) => {
      const host = await findVisible(appletHostResource, ctxOf(req), (req.params as { id: string }).id);
      const created = await generateAccounts(req, host);
      return { msg: tr(req.lang, AM.accounts_generated, { created }), created };
    },
  );
  app.get(
    `${APPLET_HOSTS_URL}:id/accounts/`,
    {
      config: {
        perm: 'terminal.view_applethost',
        describe: pick(accountResource, ['id', 'name', 'username', 'secret_type', 'privileged', 'is_active']),
      },
    },
    async (req) => {
      const host = await findVisible(appletHostResource, ctxOf(req), (req.params as { id: string }).id);
      return accountsOfAsset(ctxOf(req), String(host.id));
    },
  );
  app.post(`${deploymentResource.url}`, { config: { perm: 'terminal.change_applethost' } }, async (req, reply) => {
    const body = (req.body ?? {}) as { host?: unknown };
    const host = await hostOf(req, body.host);
    const task = await deploy(req, host, null, true);
    await app.jobEngine.queued();
    return reply.code(201).send({ task });
  });
  app.post(
    `${deploymentResource.url}applets/`,
    { config: { perm: 'terminal.change_applethost' } },
    async (req, reply) => {
      const body = (req.body ?? {}) as { hosts?: unknown; applet_id?: unknown };
      const lang = req.lang;
      if (!Array.isArray(body.hosts) || !body.hosts.length || body.hosts.length > 100)
        throw new ApiError(400, { hosts: [tr(lang, AM.hosts_required)] });
      let appletId: string | null = null;
      if (body.applet_id !== undefined && body.applet_id !== null && body.applet_id !== '') {
        try {
          appletId = String((await findVisible(appletResource, ctxOf(req), String(body.applet_id))).id);
        } catch {
          throw new ApiError(400, {
            applet_id: [tr(lang, AM.applet_not_found, { id: String(body.applet_id).slice(0, 40) })],
          });
        }
      }
      const hosts: Row[] = [];
      for (const h of body.hosts) hosts.push(await hostOf(req, typeof h === 'object' && h ? (h as Row).id : h));
      let task = '';
      for (const h of hosts) task = await deploy(req, h, appletId, false);
      await app.jobEngine.queued();
      return reply.code(201).send({ task });
    },
  );
}
