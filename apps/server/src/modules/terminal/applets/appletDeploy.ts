import { randomUUID } from 'node:crypto';
import net from 'node:net';
import type { Client } from 'ssh2';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { LANGUAGES, SYSTEM_ORG_ID, type Language } from '@gatehouse/contract';
import type { DB } from '../../../platform/db/schema.ts';
import { toBool } from '../../../platform/db/schema.ts';
import { tr } from '../../../platform/i18n/catalogue.ts';
import type { ExecutionHandler } from '../../ops/engine/engine.ts';
import { openSsh } from '../gateway/sshConnect.ts';
import { AM } from './appletMessages.ts';

/**
 * What a deployment of an applet host does, as a job-engine execution (`job_type`
 * `applet_deploy`, its id the deployment's `task` and task log): reach the host's SSH port,
 * sign in with its privileged account (host key trusted on first use, as the gateway does:
 * gateway/sshConnect.ts) and ask PowerShell for the Windows version. Each step that fails ends the
 * deployment `failed` with its reason in the task log and the deployment's comment, and marks the
 * publications it was installing failed. Past the checks a real deployment installs the RemoteApp
 * agent (Tinker), which Gatehouse does not ship: the deployment then ends failed saying so, with
 * nothing changed on the host (docs/settings.md, "Remote apps: applets and applet hosts", says what would run there).
 */
export const DEPLOY_JOB_TYPE = 'applet_deploy';
const CONNECT_TIMEOUT_MS = 10_000;
const PROBE = 'powershell -NoProfile -NonInteractive -Command "[System.Environment]::OSVersion.VersionString"';

class DeployFailure extends Error {}

/** Creates the execution of a deployment (committed by the caller's transaction or alone). */
export async function queueDeployment(
  db: Kysely<DB>,
  d: { deploymentId: string; hostName: string; creatorId: string; createdBy: string },
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('ops_jobexecution')
    .values({
      id,
      job_id: d.deploymentId,
      status: 'pending',
      trigger: 'manual',
      parameters: '{}',
      material: `applet host deployment: ${d.hostName}`.slice(0, 128),
      job_type: DEPLOY_JOB_TYPE,
      job_version: JSON.stringify({ host: d.hostName }),
      summary: '{}',
      instance_id: null,
      is_finished: false,
      is_success: false,
      time_cost: 0,
      creator_id: d.creatorId,
      created_by: d.createdBy,
      date_created: new Date().toISOString(),
      date_start: null,
      date_finished: null,
      org_id: SYSTEM_ORG_ID,
    })
    .execute();
  await db.updateTable('terminal_applethostdeployment').set({ task: id }).where('id', '=', d.deploymentId).execute();
  return id;
}

function reach(host: string, port: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host, port, timeout: CONNECT_TIMEOUT_MS });
    const done = (e?: Error) => {
      sock.destroy();
      signal.removeEventListener('abort', onAbort);
      if (e) reject(e);
      else resolve();
    };
    const onAbort = () => done(new Error('stopped'));
    signal.addEventListener('abort', onAbort);
    sock.once('connect', () => done());
    sock.once('timeout', () => done(new Error(`no answer in ${CONNECT_TIMEOUT_MS / 1000} s`)));
    sock.once('error', (e) => done(e));
  });
}

function exec(client: Client, command: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    client.exec(command, (err, stream) => {
      if (err) return reject(err);
      let out = '';
      const add = (b: Buffer) => {
        if (out.length < 4096) out += b.toString('utf8');
      };
      stream.on('data', add);
      stream.stderr.on('data', add);
      stream.on('close', (code: number | null) => resolve({ code: code ?? -1, out: out.trim() }));
    });
  });
}

export function deploymentHandler(app: FastifyInstance): ExecutionHandler {
  return async (execRow, ctx) => {
    const db = app.deps.database.db;
    const user = await db
      .selectFrom('users_user')
      .select('lang')
      .where('id', '=', execRow.creator_id)
      .executeTakeFirst();
    const lang: Language = (LANGUAGES as readonly string[]).includes(user?.lang ?? '')
      ? (user!.lang as Language)
      : 'en';
    const log = (line: string) => ctx.log.write(line).catch(() => undefined);
    const deployment = await db
      .selectFrom('terminal_applethostdeployment')
      .selectAll()
      .where('id', '=', execRow.job_id)
      .executeTakeFirst();
    if (!deployment) return { status: 'failed', summary: { error: 'the deployment no longer exists' } };
    const now = () => new Date().toISOString();
    await db
      .updateTable('terminal_applethostdeployment')
      .set({ status: 'running', date_start: now(), date_updated: now() })
      .where('id', '=', deployment.id)
      .execute();
    const finish = async (status: 'success' | 'failed', comment: string) => {
      await db
        .updateTable('terminal_applethostdeployment')
        .set({ status, comment: comment.slice(0, 1000), date_finished: now(), date_updated: now() })
        .where('id', '=', deployment.id)
        .execute();
      if (!toBool(deployment.initial)) {
        let q = db
          .updateTable('terminal_appletpublication')
          .set({ status, comment: comment.slice(0, 1000), date_updated: now() })
          .where('host_id', '=', deployment.host_id);
        if (deployment.applet_id) q = q.where('applet_id', '=', deployment.applet_id);
        await q.execute();
      }
    };
    try {
      const host = await db
        .selectFrom('assets_asset')
        .select(['id', 'name', 'address'])
        .where('id', '=', deployment.host_id)
        .executeTakeFirst();
      if (!host) throw new DeployFailure(tr(lang, AM.host_gone));
      if (toBool(deployment.initial)) await log(tr(lang, AM.deploy_start, { name: host.name, address: host.address }));
      else {
        const names = deployment.applet_id
          ? await db.selectFrom('terminal_applet').select('name').where('id', '=', deployment.applet_id).execute()
          : await db.selectFrom('terminal_applet').select('name').where('is_active', '=', true).execute();
        await log(
          tr(lang, AM.install_start, {
            name: host.name,
            address: host.address,
            applets: names.map((n) => n.name).join(', '),
          }),
        );
      }
      const ssh = await db
        .selectFrom('assets_protocol')
        .select('port')
        .where('asset_id', '=', host.id)
        .where('name', '=', 'ssh')
        .executeTakeFirst();
      if (!ssh) throw new DeployFailure(tr(lang, AM.no_ssh));
      const port = Number(ssh.port);
      const account = await db
        .selectFrom('accounts_account')
        .selectAll()
        .where('asset_id', '=', host.id)
        .where('privileged', '=', true)
        .where('is_active', '=', true)
        .where('secret_type', 'in', ['password', 'ssh_key'])
        .where('secret', 'is not', null)
        .orderBy('name')
        .executeTakeFirst();
      if (!account) throw new DeployFailure(tr(lang, AM.no_account));
      try {
        await reach(host.address, port, ctx.signal);
      } catch (e) {
        throw new DeployFailure(tr(lang, AM.unreachable, { address: host.address, port, error: (e as Error).message }));
      }
      await log(tr(lang, AM.reached, { address: host.address, port }));
      const box = app.deps.secretBox;
      const secret = box.decrypt(account.secret!);
      const credentials =
        account.secret_type === 'password'
          ? { username: account.username, password: secret }
          : {
              username: account.username,
              privateKey: secret,
              ...(account.passphrase ? { passphrase: box.decrypt(account.passphrase) } : {}),
            };
      let link;
      try {
        link = await openSsh(db, lang, { assetId: host.id, host: host.address, port, credentials });
      } catch (e) {
        throw new DeployFailure(tr(lang, AM.login_failed, { username: account.username, error: (e as Error).message }));
      }
      try {
        const r = await exec(link.client, PROBE).catch((e: Error) => ({ code: -1, out: e.message }));
        if (r.code !== 0 || !/windows/i.test(r.out))
          throw new DeployFailure(tr(lang, AM.not_windows, { error: r.out.slice(0, 300) || `exit ${r.code}` }));
        await log(tr(lang, AM.windows, { version: r.out.slice(0, 200) }));
      } finally {
        link.end();
      }
      throw new DeployFailure(tr(lang, AM.no_agent));
    } catch (e) {
      const reason = e instanceof DeployFailure ? e.message : `${(e as Error).message}`;
      await log(reason);
      await finish('failed', reason);
      return { status: 'failed', summary: { error: reason } };
    }
  };
}
