import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { settingFields } from '@gatehouse/contract';
import { ApiError } from '../../../http/errors.ts';
import { shape } from '../../../resource/describe.ts';
import { tr } from '../../../platform/i18n/catalogue.ts';
import { validateCategory } from '../../settings/settingValidate.ts';
import { decryptSecret } from '../browserKeys.ts';
import { existingOrgs } from '../providers/externalUsers.ts';
import { loadLdapConfig, type LdapConfig } from './config.ts';
import { bindAs, findEntry, LdapBindFailed, LdapUnavailable, searchAll } from './directory.ts';
import { importProfiles } from './importUsers.ts';
import { LM } from './messages.ts';
import { cachedUsers, clearCache, startSync, syncState } from './sync.ts';

/**
 * The LDAP tools of Settings › Auth › LDAP (`/api/v1/settings/ldap/…`, `settings.change_auth`):
 * test the configuration (bind and search, answering the count) and a user's sign-in, list the
 * directory's users from the cache (marking those that exist here), refresh that cache (a sync in
 * the background, one at a time across instances) and import chosen users into chosen orgs.
 */
const BASE = '/api/v1/settings/ldap/';
const perm = { perm: 'settings.change_auth' };

function directoryMessage(req: FastifyRequest, e: unknown): string {
  const error = (e as Error).message || String(e);
  if (e instanceof LdapBindFailed) return tr(req.lang, LM.bind_failed, { error });
  if (e instanceof LdapUnavailable) return tr(req.lang, LM.unavailable, { error });
  return tr(req.lang, LM.search_failed, { error });
}

/** The stored configuration, with the form's unsaved values (checked like a save) over it. */
async function configFrom(req: FastifyRequest): Promise<LdapConfig> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, {});
  const form = { ...body };
  if (typeof form.AUTH_LDAP_BIND_PASSWORD === 'string' && form.AUTH_LDAP_BIND_PASSWORD)
    form.AUTH_LDAP_BIND_PASSWORD = await decryptSecret(req, form.AUTH_LDAP_BIND_PASSWORD, 'AUTH_LDAP_BIND_PASSWORD');
  const checked = validateCategory(settingFields('ldap'), form, true, req.lang);
  if (!checked.ok) throw new ApiError(400, checked.errors);
  return loadLdapConfig(req.server.deps.settings, checked.values);
}

async function testConfig(req: FastifyRequest, reply: FastifyReply) {
  const config = await configFrom(req);
  try {
    let count = 0;
    await searchAll(config, (page) => (count += page.length));
    return { msg: tr(req.lang, LM.config_ok, { count }) };
  } catch (e) {
    return reply.code(400).send({ msg: directoryMessage(req, e) });
  }
}

async function testLogin(req: FastifyRequest, reply: FastifyReply) {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const username = typeof body.username === 'string' ? body.username.trim() : '';
  const raw = typeof body.password === 'string' ? body.password : '';
  const missing: Record<string, string[]> = {};
  if (!username) missing.username = [tr(req.lang, LM.field_required)];
  if (!raw) missing.password = [tr(req.lang, LM.field_required)];
  if (Object.keys(missing).length > 0) throw new ApiError(400, missing);
  const password = await decryptSecret(req, raw, 'password');
  const config = await loadLdapConfig(req.server.deps.settings);
  try {
    const entry = await findEntry(config, username);
    if (!entry) return reply.code(400).send({ msg: tr(req.lang, LM.user_not_found, { username }) });
    if (!(await bindAs(config, entry.dn, password)))
      return reply.code(400).send({ msg: tr(req.lang, LM.login_failed, { username }) });
    return { msg: tr(req.lang, LM.login_ok, { username }) };
  } catch (e) {
    return reply.code(400).send({ msg: directoryMessage(req, e) });
  }
}

/** The sync's state as an answer, or undefined when the cached list can be read. */
async function notReady(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const deps = req.server.deps;
  const state = await syncState(deps);
  if (state?.status === 'running') return reply.code(409).send({ msg: tr(req.lang, LM.sync_running) });
  if (state?.status === 'error')
    return reply.code(400).send({ error: tr(req.lang, LM.sync_failed, { error: state.error }) });
  if (!(await cachedUsers(deps))) {
    // Nothing read yet: the first look starts the sync (the console polls).
    await startSync(req.server);
    return reply.code(409).send({ msg: tr(req.lang, LM.not_synced) });
  }
  return undefined;
}

async function listUsers(req: FastifyRequest, reply: FastifyReply) {
  const waiting = await notReady(req, reply);
  if (waiting) return waiting;
  const q = req.query as Record<string, string | undefined>;
  const search = (q.search ?? '').trim().toLowerCase();
  const all = (await cachedUsers(req.server.deps)) ?? [];
  const users = search
    ? all.filter((u) => [u.username, u.name, u.email].some((v) => String(v).toLowerCase().includes(search)))
    : all;
  const limit = Number(q.limit);
  const offset = Math.max(0, Number(q.offset) || 0);
  const page = Number.isInteger(limit) && limit > 0 ? users.slice(offset, offset + limit) : users;
  const existing = new Set<string>();
  const names = page.map((u) => u.username);
  for (let i = 0; i < names.length; i += 500) {
    const rows = await req.db
      .selectFrom('users_user')
      .select('username')
      .where('username', 'in', names.slice(i, i + 500))
      .execute();
    rows.forEach((r) => existing.add(r.username));
  }
  const results = page.map((u) => ({
    id: u.username,
    username: u.username,
    name: u.name,
    email: u.email,
    groups: u.groups,
    existing: existing.has(u.username),
  }));
  return page === users ? results : { count: users.length, next: null, previous: null, results };
}

async function refreshCache(req: FastifyRequest, reply: FastifyReply) {
  await clearCache(req.server.deps);
  if (!(await startSync(req.server))) return reply.code(409).send({ msg: tr(req.lang, LM.sync_running) });
  return { msg: tr(req.lang, LM.sync_started) };
}

async function importUsers(req: FastifyRequest, reply: FastifyReply) {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const wanted = Array.isArray(body.username_list) ? body.username_list.map(String) : [];
  const orgIds = Array.isArray(body.org_ids) ? await existingOrgs(req.db, body.org_ids.map(String)) : [];
  if (wanted.length === 0) throw new ApiError(400, { username_list: [tr(req.lang, LM.import_none)] });
  if (orgIds.length === 0) throw new ApiError(400, { org_ids: [tr(req.lang, LM.no_orgs)] });
  const waiting = await notReady(req, reply);
  if (waiting) return waiting;
  const all = (await cachedUsers(req.server.deps)) ?? [];
  const chosen = wanted.includes('*') ? all : all.filter((u) => new Set(wanted).has(u.username));
  const report = await importProfiles(req.db, chosen, orgIds, req.user?.username ?? 'System');
  const orgs = await req.db.selectFrom('orgs_organization').select('name').where('id', 'in', orgIds).execute();
  return {
    msg: tr(req.lang, LM.import_done, { count: report.imported, orgs: orgs.map((o) => o.name).join(', ') }),
    imported: report.imported,
    created: report.created,
    errors: report.errors.map((e) => ({
      username: e.username,
      error: e.error,
      msg: tr(req.lang, e.error === 'user_not_exist' ? LM.user_not_exist : LM[e.error], { ...e }),
    })),
  };
}

export function registerLdapRoutes(app: FastifyInstance): void {
  const users = shape('ldap_user', {
    id: 'string',
    username: 'string',
    name: 'string',
    email: 'string',
    groups: 'json',
    existing: 'boolean',
  });
  app.post(`${BASE}testing/config/`, { config: perm }, testConfig);
  app.post(`${BASE}testing/login/`, { config: perm }, testLogin);
  app.get(`${BASE}users/`, { config: { ...perm, describe: users } }, listUsers);
  app.post(`${BASE}users/import/`, { config: perm }, importUsers);
  // A GET that starts the sync (the contract's); it needs the session's CSRF header like a write.
  app.get(
    `${BASE}cache/refresh/`,
    { config: { ...perm, changesState: true, describe: shape('msg', { msg: 'string' }) } },
    refreshCache,
  );
}
