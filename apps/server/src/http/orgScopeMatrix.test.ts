import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_ROLES, BUILTIN_ROLE_IDS, ROOT_ORG_ID } from '@gatehouse/contract';
import { allDefs } from '../resource/registry.ts';
import type { ResourceDef } from '../resource/types.ts';
import type { SessionClient, TestApp } from '../../test-support/testApp.ts';
import { seedSession } from '../../test-support/auditSeed.ts';
import { customRole } from '../../test-support/roles.ts';
import { MATRIX_PASSWORD as PASSWORD, matrixWorld, type MatrixWorld } from '../../test-support/matrixActors.ts';

/**
 * The authorisation matrix's other half (issue 6; the role × route half is
 * `authorizationMatrix.test.ts`): no object of another organisation can be listed, read, changed or
 * deleted through any route, even by its id; and no actor can grant a role it does not hold.
 */
let world: MatrixWorld;
let t: TestApp;
let admin: SessionClient;
let orgA: string;
let orgB: string;
const clients = new Map<string, SessionClient>();

beforeAll(async () => {
  world = await matrixWorld();
  ({ t, admin, orgA, orgB } = world);
  clients.set('OrgAdmin', await world.roleUser(BUILTIN_ROLES.find((r) => r.id === BUILTIN_ROLE_IDS.OrgAdmin)!));
}, 120_000);
afterAll(async () => t.close());

const fill = (url: string, id: string) => url.replace(/:[a-z_]+/g, id);

describe('organisation scope', () => {
  it('never lets one organisation reach another’s objects, through any route', async () => {
    const group = (await admin.post('/api/v1/users/groups/', { name: 'secret-b' }, { 'x-jms-org': orgB })).json();
    const binding = (
      await admin.get(`/api/v1/rbac/org-role-bindings/?user__username=m_orgadmin`, { 'x-jms-org': orgA })
    ).json()[0];
    expect(binding).toBeDefined();
    const hostB = (
      await admin.post(
        '/api/v1/assets/hosts/',
        { name: 'host-b', address: '10.0.0.2', platform: 'Linux' },
        { 'x-jms-org': orgB },
      )
    ).json();
    const accountB = (
      await admin.post(
        '/api/v1/accounts/accounts/',
        { asset: hostB.id, username: 'root-b', secret: 'Secret-of-b-1' },
        { 'x-jms-org': orgB },
      )
    ).json();
    const templateB = (
      await admin.post('/api/v1/accounts/account-templates/', { name: 'tpl-b', username: 'b' }, { 'x-jms-org': orgB })
    ).json();
    const permB = (
      await admin.post(
        '/api/v1/perms/asset-permissions/',
        { name: 'perm-b', user_groups: [group.id], assets: [hostB.id] },
        { 'x-jms-org': orgB },
      )
    ).json();
    // A gateway session in B of the admin himself: his own sessions (`my-sessions/`) follow the org too.
    const adminId = (await admin.get('/api/v1/users/profile/')).json().id;
    const sessionB = await seedSession(t.deps.database.db, {
      user_id: adminId,
      asset: 'host-b',
      org_id: orgB,
      date_start: new Date().toISOString(),
    });
    // A job of the admin himself in B and its execution: the job centre's own-only routes follow the org too.
    const jobB = randomUUID();
    const executionB = randomUUID();
    await t.deps.database.db
      .insertInto('ops_job')
      .values({
        id: jobB,
        name: 'job-b',
        instant: false,
        type: 'adhoc',
        module: 'shell',
        args: 'date',
        playbook_id: null,
        assets: JSON.stringify([hostB.id]),
        nodes: '[]',
        runas: 'root',
        runas_policy: 'skip',
        use_parameter_define: false,
        parameters_define: '{}',
        timeout: -1,
        chdir: '',
        comment: '',
        is_periodic: false,
        interval: 24,
        crontab: '',
        creator_id: adminId,
        created_by: 'admin',
        date_last_run: null,
        date_created: new Date().toISOString(),
        date_updated: new Date().toISOString(),
        org_id: orgB,
      })
      .execute();
    await t.deps.database.db
      .insertInto('ops_jobexecution')
      .values({
        id: executionB,
        job_id: jobB,
        status: 'success',
        trigger: 'manual',
        parameters: '{}',
        material: 'shell:date',
        job_type: 'adhoc',
        job_version: '{}',
        summary: '{}',
        instance_id: null,
        is_finished: true,
        is_success: true,
        time_cost: 0,
        creator_id: adminId,
        created_by: 'admin',
        date_created: new Date().toISOString(),
        date_start: null,
        date_finished: null,
        org_id: orgB,
      })
      .execute();
    // The admin's own playbook in B (playbooks are their creator's only, and org-scoped).
    const playbookB = (await admin.post('/api/v1/ops/playbooks/', { name: 'pb-b' }, { 'x-jms-org': orgB })).json();
    // Cloud sync's account and task in B (a strategy goes through the same resource routes as the
    // account; each id here costs every id route, so it is created but not tried).
    const cloudB = (
      await admin.post(
        '/api/v1/xpack/cloud/accounts/',
        { name: 'lan-b', provider: 'lan', attrs: { ip_group: ['192.0.2.1'] } },
        { 'x-jms-org': orgB },
      )
    ).json();
    const strategyB = (
      await admin.post('/api/v1/xpack/cloud/strategies/', { name: 'st-b' }, { 'x-jms-org': orgB })
    ).json();
    const syncTaskB = (
      await admin.post(
        '/api/v1/xpack/cloud/sync-instance-tasks/',
        { name: 'sync-b', account: cloudB.id },
        { 'x-jms-org': orgB },
      )
    ).json();
    expect(
      [hostB.id, accountB.id, templateB.id, permB.id, playbookB.id, cloudB.id, strategyB.id, syncTaskB.id].every(
        Boolean,
      ),
    ).toBe(true);
    // An account automation of B with an execution, a record and a gathered account (issue 30).
    const automationB = (
      await admin.post(
        '/api/v1/accounts/change-secret-automations/',
        { name: 'cs-b', assets: [hostB.id], accounts: ['root-b'], secret_strategy: 'random', is_periodic: false },
        { 'x-jms-org': orgB },
      )
    ).json();
    const automationExecB = randomUUID();
    const now = new Date().toISOString();
    await t.deps.database.db
      .insertInto('ops_jobexecution')
      .values({
        id: automationExecB,
        job_id: automationB.id,
        status: 'success',
        trigger: 'manual',
        parameters: '{}',
        material: 'change_secret:cs-b',
        job_type: 'change_secret',
        job_version: '{}',
        summary: '{}',
        instance_id: null,
        is_finished: true,
        is_success: true,
        time_cost: 0,
        creator_id: adminId,
        created_by: 'admin',
        date_created: now,
        date_start: now,
        date_finished: now,
        org_id: orgB,
      })
      .execute();
    const recordB = randomUUID();
    await t.deps.database.db
      .insertInto('accounts_automationrecord')
      .values({
        id: recordB,
        type: 'change_secret',
        execution_id: automationExecB,
        automation_id: automationB.id,
        asset_id: hostB.id,
        asset_name: 'host-b',
        account_id: accountB.id,
        account_name: 'root-b',
        username: 'root-b',
        status: 'success',
        state: 'new',
        secret_type: 'password',
        new_secret: null,
        new_passphrase: null,
        old_secret: null,
        old_passphrase: null,
        old_version: 1,
        error: '',
        date_started: now,
        date_finished: now,
        org_id: orgB,
      })
      .execute();
    const gatheredB = randomUUID();
    await t.deps.database.db
      .insertInto('accounts_gatheredaccount')
      .values({
        id: gatheredB,
        asset_id: hostB.id,
        username: 'found-b',
        address_last_login: '',
        date_last_login: null,
        present: true,
        date_created: now,
        date_updated: now,
        org_id: orgB,
      })
      .execute();
    const backupPlanB = (
      await admin.post(
        '/api/v1/accounts/account-backup-plans/',
        { name: 'bk-b', types: ['linux'], recipients_part_one: [adminId], recipients_part_two: [adminId] },
        { 'x-jms-org': orgB },
      )
    ).json();
    expect(automationB.id).toBeDefined();
    expect(backupPlanB.id).toBeDefined();
    const backupExecB = (
      await admin.post(
        '/api/v1/accounts/account-backup-plan-executions/',
        { plan: backupPlanB.id },
        { 'x-jms-org': orgB },
      )
    ).json().task as string;
    expect(backupExecB).toBeDefined();
    const foreign = [
      group.id,
      hostB.id,
      accountB.id,
      templateB.id,
      permB.id,
      sessionB,
      jobB,
      executionB,
      playbookB.id,
      cloudB.id,
      syncTaskB.id,
      automationB.id,
      automationExecB,
      recordB,
      gatheredB,
      backupPlanB.id,
      backupExecB,
    ];
    const idRoutes = t.app.routeTable.filter((r) => r.url.includes(':') && r.method !== 'OPTIONS');
    const listRoutes = t.app.routeTable.filter((r) => !r.url.includes(':') && r.method === 'GET');
    // Which of B's objects each URL knows: read in B itself by the superuser. A URL that answers 404
    // there for an id (an object of another kind: a host's id on the groups route) cannot answer
    // better from A, so from A only the ids it knows are tried, on its GET and on every other method
    // of the same URL, which looks the object up alike. A URL without a GET (actions) gets every id.
    // Two thirds of the requests this file made went to such pairs.
    // Reads only, so eight at a time: on PostgreSQL each waits on the database.
    const known = new Map<string, string[]>();
    const probes = idRoutes.filter((r) => r.method === 'GET').flatMap((r) => foreign.map((id) => ({ url: r.url, id })));
    for (let i = 0; i < probes.length; i += 8) {
      await Promise.all(
        probes.slice(i, i + 8).map(async ({ url, id }) => {
          const res = await admin.request({ method: 'GET', url: fill(url, id), headers: { 'x-jms-org': orgB } });
          if (!known.has(url)) known.set(url, []);
          if (res.statusCode !== 404) known.get(url)!.push(id);
        }),
      );
    }
    expect([...known.values()].filter((ids) => ids.length).length).toBeGreaterThan(20);
    const leaks: string[] = [];
    for (const who of ['OrgAdmin', 'SystemAdmin'] as const) {
      const client = who === 'SystemAdmin' ? admin : clients.get(who)!;
      for (const r of idRoutes) {
        for (const id of known.get(r.url) ?? foreign) {
          const payload = ['POST', 'PUT', 'PATCH'].includes(r.method) ? { name: 'stolen' } : undefined;
          const res = await client.request({
            method: r.method,
            url: fill(r.url, id),
            headers: { 'x-jms-org': orgA },
            ...(payload ? { payload } : {}),
          });
          if (res.statusCode < 300) leaks.push(`${who}: ${r.method} ${fill(r.url, id)} → ${res.statusCode}`);
        }
      }
      for (const r of listRoutes) {
        if (r.url.includes('/health/')) continue;
        // A person's inbox holds what was sent to them from any organisation: the admin is a recipient
        // of B's backup plan, and its execution told him so (the contract's site messages are per user).
        if (who === 'SystemAdmin' && r.url === '/api/v1/notifications/site-messages/') continue;
        const res = await client.request({ method: 'GET', url: r.url, headers: { 'x-jms-org': orgA } });
        if (foreign.some((id) => res.body.includes(id))) leaks.push(`${who}: GET ${r.url} lists an object of org B`);
      }
    }
    expect(leaks).toEqual([]);
    expect((await admin.get(`/api/v1/users/groups/${group.id}/`, { 'x-jms-org': orgB })).json().name).toBe('secret-b');
    expect((await admin.get(`/api/v1/users/groups/${group.id}/`, { 'x-jms-org': ROOT_ORG_ID })).statusCode).toBe(200);
  }, 300_000); // every id route × the foreign objects it knows × two callers: a minute on a loaded 2-core machine
});

/**
 * "Actor grants a role it does not hold", for every route that carries roles: generated from the
 * resources whose fields write role bindings (the user form's `system_roles`/`org_roles`) and the
 * role-binding resources, on each of their write routes (create, update, bulk update; imports
 * post to the same routes). After each request no forbidden binding may exist.
 */
describe('role grants', () => {
  const roleFields = (def: ResourceDef) =>
    Object.entries(def.fields)
      .filter(([, f]) => f.m2m?.through?.table === 'rbac_rolebinding')
      .map(([name]) => name);

  it('never lets an actor grant a role it does not hold, through any route that carries roles', async () => {
    const db = t.deps.database.db;
    // An actor that may bind roles but holds little: it still cannot grant more than it has.
    const binderPerms = [
      'rbac.view_console',
      'users.view_user',
      'users.add_user',
      'users.change_user',
      'rbac.view_rolebinding',
      'rbac.add_rolebinding',
      'rbac.change_rolebinding',
      'rbac.view_systemrolebinding',
      'rbac.add_systemrolebinding',
      'rbac.change_systemrolebinding',
      'rbac.view_orgrolebinding',
      'rbac.add_orgrolebinding',
      'rbac.change_orgrolebinding',
    ];
    const binderRole = await customRole(db, 'Binder', 'system', binderPerms);
    const binder = await world.makeUser('m_binder', [{ role: BUILTIN_ROLE_IDS.User }, { role: binderRole }]);
    const actors = [
      { name: 'OrgAdmin', client: clients.get('OrgAdmin')! },
      { name: 'Binder', client: binder },
    ];
    const forbidden = [
      BUILTIN_ROLE_IDS.SystemAdmin,
      BUILTIN_ROLE_IDS.SystemAuditor,
      BUILTIN_ROLE_IDS.OrgAdmin,
      BUILTIN_ROLE_IDS.OrgAuditor,
    ];
    const target = (
      await admin.post(
        '/api/v1/users/users/',
        {
          name: 'grant_target',
          username: 'grant_target',
          email: 'gt@example.com',
          password_strategy: 'custom',
          password: PASSWORD,
        },
        { 'x-jms-org': orgA },
      )
    ).json().id as string;
    const targetBinding = (
      await db
        .selectFrom('rbac_rolebinding')
        .select('id')
        .where('user_id', '=', target)
        .where('scope', '=', 'org')
        .executeTakeFirstOrThrow()
    ).id;
    const count = async () =>
      Number(
        (
          await db
            .selectFrom('rbac_rolebinding')
            .innerJoin('users_user', 'users_user.id', 'rbac_rolebinding.user_id')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('role_id', 'in', forbidden)
            .where('users_user.username', 'not like', 'm_%')
            .where('users_user.username', '!=', 'admin')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();

    const requests: {
      method: string;
      url: string;
      body: (role: string, scope: 'system' | 'org', n: number) => unknown;
    }[] = [];
    const carrying = allDefs().filter((d) => roleFields(d).length || d.table === 'rbac_rolebinding');
    expect(carrying.map((d) => d.url)).toEqual(
      expect.arrayContaining([
        '/api/v1/users/users/',
        '/api/v1/rbac/role-bindings/',
        '/api/v1/rbac/system-role-bindings/',
      ]),
    );
    for (const def of carrying) {
      if (def.table === 'rbac_rolebinding') {
        requests.push({ method: 'POST', url: def.url, body: (role) => ({ user: target, role }) });
        for (const m of ['PUT', 'PATCH'])
          requests.push({ method: m, url: `${def.url}${targetBinding}/`, body: (role) => ({ user: target, role }) });
        continue;
      }
      const fields = (role: string, scope: 'system' | 'org') =>
        Object.fromEntries(
          roleFields(def)
            .map((f) => [f, f.startsWith(scope) ? [role] : []])
            .filter(([, v]) => (v as string[]).length),
        );
      requests.push({
        method: 'POST',
        url: def.url,
        body: (role, scope, n) => ({
          name: `g${n}`,
          username: `grant_new_${n}`,
          email: `grant_new_${n}@example.com`,
          password_strategy: 'custom',
          password: PASSWORD,
          ...fields(role, scope),
        }),
      });
      for (const m of ['PUT', 'PATCH']) {
        requests.push({
          method: m,
          url: `${def.url}${target}/`,
          body: (role, scope) => ({
            ...fields(role, scope),
            ...(m === 'PUT' ? { name: 'grant_target', username: 'grant_target', email: 'gt@example.com' } : {}),
          }),
        });
        requests.push({
          method: m,
          url: def.url,
          body: (role, scope) => [
            {
              id: target,
              ...fields(role, scope),
              ...(m === 'PUT' ? { name: 'grant_target', username: 'grant_target', email: 'gt@example.com' } : {}),
            },
          ],
        });
      }
    }
    const leaks: string[] = [];
    let n = 0;
    for (const actor of actors) {
      for (const r of requests) {
        for (const role of forbidden) {
          const scope = BUILTIN_ROLES.find((x) => x.id === role)!.scope;
          n += 1;
          const res = await actor.client.request({
            method: r.method,
            url: r.url,
            headers: { 'x-jms-org': orgA },
            payload: r.body(role, scope, n) as object,
          });
          if (res.statusCode >= 500) leaks.push(`${actor.name}: ${r.method} ${r.url} → ${res.statusCode}`);
          if ((await count()) !== before) {
            leaks.push(`${actor.name}: ${r.method} ${r.url} granted ${BUILTIN_ROLES.find((x) => x.id === role)!.name}`);
            await db
              .deleteFrom('rbac_rolebinding')
              .where('role_id', 'in', forbidden)
              .where('user_id', 'in', db.selectFrom('users_user').select('id').where('username', 'like', 'grant%'))
              .execute();
          }
        }
      }
    }
    expect(requests.length).toBeGreaterThanOrEqual(10);
    expect(leaks).toEqual([]);
    // The same grants by a superuser go through: the refusals above are about the actor.
    const ok = await admin.request({
      method: 'PATCH',
      url: `/api/v1/users/users/${target}/`,
      headers: { 'x-jms-org': orgA },
      payload: { system_roles: [BUILTIN_ROLE_IDS.User, BUILTIN_ROLE_IDS.SystemAuditor] },
    });
    expect(ok.statusCode).toBe(200);
    expect(await count()).toBe(before + 1);
  }, 120_000);
});
