import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { requirePerm } from '../../http/permissions.ts';
import type { TaskLogWriter } from '../ops/taskLog.ts';
import { startObjectTask } from '../ops/objectTask.ts';
import { sshAttempt, targetOf } from '../assets/connectivity.ts';
import { acm } from './accountMessages.ts';
import { unseal } from './secrets.ts';
import { pushAccounts } from './pushPort.ts';

/**
 * `POST accounts/tasks/`: `test`/`verify` logs in over SSH with each account's
 * own secret (password, or key with its passphrase) on its asset's SSH port; success is
 * connectivity `ok`, anything else `err`. The task runs after the answer, its state in the cache
 * like the asset connectivity test (read back through `ops/celery/task/<id>/`), its progress in
 * the task log. The secret goes to the SSH client only; log lines name the account, never the secret.
 */
const TIMEOUT_MS = 8000;

export interface AccountTestResult {
  account: string;
  name: string;
  connectivity: string;
  error?: string;
}

export interface SshLogin {
  host: string;
  port: number;
  username: string;
  password?: string;
  privateKey?: string;
  passphrase?: string;
}

/**
 * Logins by other protocols, filled in by the modules that speak them (the database proxies'
 * upstream login, `terminal/database/dbVerify.ts`): undefined when it succeeded, else why not.
 */
export interface ProtocolLogin {
  protocol: string;
  host: string;
  port: number;
  username: string;
  password: string;
  database: string;
}
const protocolLogins = new Map<string, (o: ProtocolLogin) => Promise<string | undefined>>();

export function setProtocolLogin(protocols: string[], login: (o: ProtocolLogin) => Promise<string | undefined>): void {
  for (const p of protocols) protocolLogins.set(p, login);
}

/** One SSH login; undefined when it succeeded, else why not. */
export function sshLogin(o: SshLogin, timeout = TIMEOUT_MS): Promise<string | undefined> {
  const { passphrase, ...rest } = o;
  return sshAttempt({ ...rest, readyTimeout: timeout, ...(passphrase ? { passphrase } : {}) }, 'ready');
}

async function verifyOne(
  req: FastifyRequest,
  accountId: string,
  log: TaskLogWriter,
): Promise<AccountTestResult | undefined> {
  const db = req.server.deps.database.db;
  const a = await db.selectFrom('accounts_account').selectAll().where('id', '=', accountId).executeTakeFirst();
  if (!a) return undefined;
  const asset = await db
    .selectFrom('assets_asset')
    .select(['name', 'address'])
    .where('id', '=', a.asset_id)
    .executeTakeFirstOrThrow();
  const ssh = await db
    .selectFrom('assets_protocol')
    .select(['name', 'port'])
    .where('asset_id', '=', a.asset_id)
    .where('name', '=', 'ssh')
    .executeTakeFirst();
  const other = ssh
    ? undefined
    : await db
        .selectFrom('assets_protocol')
        .select(['name', 'port'])
        .where('asset_id', '=', a.asset_id)
        .where('name', 'in', [...protocolLogins.keys()])
        .executeTakeFirst();
  await log.write(`>>> ${a.name}(${a.username})@${asset.name} (${asset.address})`);
  let error: string | undefined;
  const secret = unseal(req, a.secret);
  if (other && a.secret_type === 'password' && secret) {
    // A database account: logged in by the database's own protocol.
    const t = targetOf(asset.address, { name: other.name, port: Number(other.port) });
    await log.write(`    ${other.name} ${t.host}:${t.port} as ${a.username} with password`);
    const row = await db.selectFrom('assets_asset').select('db_name').where('id', '=', a.asset_id).executeTakeFirst();
    error = await protocolLogins.get(other.name)!({
      protocol: other.name,
      host: t.host,
      port: t.port,
      username: a.username,
      password: secret,
      database: row?.db_name ?? '',
    });
  } else if (!ssh) error = acm(req.lang, 'verify_no_ssh');
  else if (a.secret_type !== 'password' && a.secret_type !== 'ssh_key')
    error = acm(req.lang, 'verify_unsupported_type');
  else if (!secret) error = acm(req.lang, 'verify_no_secret');
  else {
    const t = targetOf(asset.address, { name: 'ssh', port: Number(ssh.port) });
    await log.write(
      `    ssh ${t.host}:${t.port} as ${a.username} with ${a.secret_type === 'password' ? 'password' : 'SSH key'}`,
    );
    error = await sshLogin({
      host: t.host,
      port: t.port,
      username: a.username,
      ...(a.secret_type === 'password'
        ? { password: secret }
        : { privateKey: secret, passphrase: unseal(req, a.passphrase) ?? '' }),
    });
  }
  const connectivity = error ? 'err' : 'ok';
  await log.write(`    ${error ? `failed: ${error}` : 'ok'}`);
  await db
    .updateTable('accounts_account')
    .set({ connectivity, date_verified: new Date().toISOString() })
    .where('id', '=', a.id)
    .execute();
  return { account: a.id, name: a.name, connectivity, ...(error ? { error } : {}) };
}

async function startTask(req: FastifyRequest): Promise<{ task: string }> {
  const body = (req.body ?? {}) as { action?: unknown; accounts?: unknown };
  const lang = req.lang;
  if (body.action === 'push') {
    await requirePerm(req, 'accounts.push_account');
    const push = pushAccounts();
    if (!push) throw new ApiError(400, { error: acm(lang, 'push_unavailable') });
    if (!Array.isArray(body.accounts) || !body.accounts.length || body.accounts.length > 5000)
      throw new ApiError(400, { accounts: [acm(lang, 'accounts_required')] });
    const task = await push({ req, db: req.db }, [...new Set(body.accounts.map(String))]);
    return { task };
  }
  if (body.action !== 'test' && body.action !== 'verify')
    throw new ApiError(400, { action: [acm(lang, 'action_invalid', { value: String(body.action) })] });
  await requirePerm(req, 'accounts.verify_account');
  if (!Array.isArray(body.accounts) || !body.accounts.length)
    throw new ApiError(400, { accounts: [acm(lang, 'accounts_required')] });
  const wanted = body.accounts.map(String);
  let q = req.db.selectFrom('accounts_account').select('id').where('id', 'in', wanted);
  if (req.org.id !== ROOT_ORG_ID) q = q.where('org_id', '=', req.org.id);
  const found = new Set((await q.execute()).map((r) => r.id));
  const ids = [...new Set(wanted)].filter((id) => found.has(id));
  return startObjectTask(req, 'verify-accounts-connectivity', ids, 'account(s)', (id, log) => verifyOne(req, id, log));
}

export function registerAccountTaskRoutes(app: FastifyInstance): void {
  app.post(
    '/api/v1/accounts/accounts/tasks/',
    { config: { perm: 'accounts.verify_account | accounts.push_account' } },
    startTask,
  );
}
