import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_ID, ROOT_ORG_ID } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { makeAccount, makeAsset, makeNode, makeUser, P, PERMS, type Row } from '../../../test-support/perms.ts';
import { bindOrgAdmin, put, requestAssets, signIn, T } from '../../../test-support/tickets.ts';

/**
 * Tickets through the API (issue 19): asking for assets and the permission the final approval
 * creates, every transition of the state machine and the refused ones, two-level flows with org
 * and custom assignees, bulk approval, comments, flows, messages to assignees and applicants.
 */
let t: TestApp;
let admin: SessionClient;
let alice: SessionClient;
let bob: SessionClient;
let carol: SessionClient;
const u: Record<string, Row> = {};
const a: Record<string, Row> = {};
let node: Row;
let orgB: string;
let foreignAsset: Row;
const A = `${T}/apply-asset-tickets`;

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  orgB = (await admin.post('/api/v1/orgs/orgs/', { name: 'Ticket org B' })).json().id;
  for (const name of ['alice', 'bob', 'carol']) u[name] = await makeUser(admin, name);
  await bindOrgAdmin(t, u.carol!.id, DEFAULT_ORG_ID);
  node = await makeNode(admin, 'Web');
  a.web1 = await makeAsset(admin, [node.id], DEFAULT_ORG_ID, 'web1');
  a.db1 = await makeAsset(admin, [], DEFAULT_ORG_ID, 'db1');
  await makeAccount(admin, a.db1!.id, 'root');
  await makeAccount(admin, a.db1!.id, 'app');
  foreignAsset = await makeAsset(admin, [], orgB, 'b-host');
  alice = await signIn(t, 'alice');
  bob = await signIn(t, 'bob');
  carol = await signIn(t, 'carol');
});
afterAll(async () => t.close());

const get = async (c: SessionClient, url: string) => {
  const res = await c.get(url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const ticketOf = (c: SessionClient, id: string) => get(c, `${T}/tickets/${id}/`);

describe('asking for assets', () => {
  it('creates, on final approval, a permission granting the applicant exactly what was approved', async () => {
    const opened = await requestAssets(alice, {
      title: 'db access',
      apply_assets: [a.db1!.id],
      apply_accounts: ['root', 'app'],
      apply_actions: ['connect', 'copy'],
      apply_date_start: '2020-01-01T00:00:00Z',
      apply_date_expired: '2099-01-01T00:00:00Z',
    });
    expect(opened).toMatchObject({
      type: { value: 'apply_asset', label: 'Apply for asset' },
      state: { value: 'pending', label: 'Open' },
      status: { value: 'open', label: 'Open' },
      approval_step: 1,
      applicant: { id: u.alice!.id, name: 'alice(alice)' },
      apply_assets: [{ id: a.db1!.id, name: 'db1' }],
      apply_accounts: ['root', 'app'],
      apply_permission_name: `Created by ticket (db access-${opened.id.slice(0, 4)})`,
      org_name: 'DEFAULT',
    });
    expect(opened.serial_num).toMatch(/^\d{12}$/);
    // The default flow: one level, the super administrators.
    expect(opened.process_map).toEqual([
      expect.objectContaining({
        approval_level: 1,
        state: 'pending',
        status: 'active',
        assignees_display: ['Administrator(admin)'],
      }),
    ]);
    expect((await get(alice, `${P}/users/self/assets/`)).map((x: Row) => x.name)).toEqual([]);
    // The approver narrows the grant on the final step: one account, connect only.
    const approved = await put(admin, `${A}/${opened.id}/approve/`, {
      apply_accounts: ['root'],
      apply_actions: ['connect'],
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      state: { value: 'approved' },
      status: { value: 'closed', label: 'Finished' },
    });
    const perms: Row[] = (await get(admin, `${PERMS}?search=${encodeURIComponent('Created by ticket')}`)).filter(
      (p: Row) => p.name === opened.apply_permission_name,
    );
    expect(perms).toHaveLength(1);
    expect(perms[0]).toMatchObject({
      from_ticket: true,
      accounts: ['root'],
      users_amount: 1,
      assets_amount: 1,
      nodes_amount: 0,
    });
    expect(perms[0]!.actions.map((x: Row) => x.value)).toEqual(['connect']);
    expect((await get(alice, `${P}/users/self/assets/`)).map((x: Row) => x.name)).toEqual(['db1']);
    const accounts: Row[] = await get(alice, `${P}/users/self/assets/${a.db1!.id}/accounts/`);
    expect(accounts.map((x) => x.username).sort()).toEqual(['root']);
    expect((await get(bob, `${P}/users/self/assets/`)).map((x: Row) => x.name)).toEqual([]);
  });

  it('refuses a bad request with field messages in the caller’s language', async () => {
    const bad = async (body: Row, lang = 'en', org = DEFAULT_ORG_ID) => {
      const res = await alice.post(`${A}/open/`, body, { 'accept-language': lang, 'x-jms-org': org });
      expect(res.statusCode, res.body).toBe(400);
      return res.json();
    };
    expect(await bad({ apply_assets: [a.db1!.id] })).toEqual({ title: ['This field is required.'] });
    expect((await bad({ title: 'x', apply_assets: [] })).apply_assets).toEqual(['Choose at least one node or asset.']);
    expect((await bad({ title: 'x', apply_assets: [foreignAsset.id] })).apply_assets[0]).toContain(
      'is not a asset of this organisation',
    );
    expect(
      (
        await bad(
          { title: 'x', apply_assets: [a.db1!.id], apply_date_start: '2030-01-02', apply_date_expired: '2030-01-01' },
          'zh',
        )
      ).apply_date_expired,
    ).toEqual(['过期时间必须晚于开始时间。']);
    expect((await bad({ title: 'x', apply_assets: [a.db1!.id], apply_actions: ['fly'] })).apply_actions).toEqual([
      'Unknown action: fly',
    ]);
    expect((await bad({ title: 'x', apply_assets: [a.db1!.id], apply_date_start: 'soon' })).apply_date_start).toEqual([
      'Enter a valid date and time.',
    ]);
  });

  it('offers the org’s assets and nodes by name to someone asking, never the global org’s', async () => {
    const assets: Row[] = await get(alice, `${A}/assets/?search=db`);
    expect(assets.map((x) => x.name)).toEqual(['db1']);
    expect((await get(alice, `${A}/nodes/?search=We`)).map((x: Row) => x.name)).toEqual(['Web']);
    const foreign = await alice.get(`${A}/assets/?search=b-host`, { 'x-jms-org': orgB });
    expect(foreign.statusCode).toBe(403);
    expect((await admin.get(`${A}/assets/`, { 'x-jms-org': ROOT_ORG_ID })).statusCode).toBe(400);
  });

  it('defaults the dates to now and the TICKET_AUTHORIZE_DEFAULT_TIME setting', async () => {
    const before = Date.now();
    const opened = await requestAssets(alice, { apply_nodes: [node.id] });
    const days = (Date.parse(opened.apply_date_expired) - Date.parse(opened.apply_date_start)) / 86400e3;
    expect(days).toBe(7);
    expect(Date.parse(opened.apply_date_start)).toBeGreaterThanOrEqual(before - 1000);
    expect(opened.apply_nodes).toEqual([{ id: node.id, name: 'Web' }]);
    expect(opened.apply_actions.map((x: Row) => x.value)).toContain('connect');
  });
});

describe('the state machine through the API', () => {
  it('lets the applicant close an open ticket, and refuses every action on it afterwards', async () => {
    const tk = await requestAssets(alice, { apply_assets: [a.web1!.id] });
    const closed = await put(alice, `${A}/${tk.id}/close/`);
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toBe('ok');
    expect(await ticketOf(alice, tk.id)).toMatchObject({
      state: { value: 'closed', label: 'Cancel' },
      status: { value: 'closed' },
    });
    for (const [c, action] of [
      [admin, 'approve'],
      [admin, 'reject'],
      [admin, 'close'],
      [alice, 'close'],
    ] as const) {
      const res = await put(c, `${A}/${tk.id}/${action}/`);
      expect(res.statusCode, `${action}: ${res.body}`).toBe(400);
      expect(res.json()).toEqual({ detail: 'Ticket already closed' });
    }
  });

  it('lets only the current assignee approve or reject; the applicant may not approve', async () => {
    const tk = await requestAssets(alice, { apply_assets: [a.web1!.id] });
    const self = await put(alice, `${A}/${tk.id}/approve/`);
    expect(self.statusCode).toBe(403);
    expect(self.json().detail).toBe("Only the assignees of the ticket's current step can act on it");
    expect((await put(alice, `${A}/${tk.id}/reject/`)).statusCode).toBe(403);
    // Someone neither applicant nor assignee does not see it at all.
    expect((await put(bob, `${A}/${tk.id}/approve/`)).statusCode).toBe(404);
    expect((await put(bob, `${A}/${tk.id}/close/`)).statusCode).toBe(404);
    expect((await bob.get(`${T}/tickets/${tk.id}/`)).statusCode).toBe(404);
    const rejected = await put(admin, `${A}/${tk.id}/reject/`);
    expect(rejected.statusCode, rejected.body).toBe(200);
    const after = await ticketOf(alice, tk.id);
    expect(after).toMatchObject({ state: { value: 'rejected' }, status: { value: 'closed' } });
    expect(after.process_map[0]).toMatchObject({
      state: 'rejected',
      status: 'closed',
      processor_display: 'Administrator(admin)',
    });
    expect((await put(admin, `${A}/${tk.id}/approve/`)).statusCode).toBe(400);
    expect((await put(alice, `${A}/${tk.id}/close/`)).statusCode).toBe(400);
  });

  it('lets an assignee close, and answers 405 to direct writes on the base list', async () => {
    const tk = await requestAssets(alice, { apply_assets: [a.web1!.id] });
    expect((await put(admin, `${T}/tickets/${tk.id}/close/`)).statusCode).toBe(200);
    expect((await admin.post(`${T}/tickets/`, {})).statusCode).toBe(405);
    expect((await put(admin, `${T}/tickets/${tk.id}/`, {})).statusCode).toBe(405);
    expect((await admin.request({ method: 'DELETE', url: `${T}/tickets/${tk.id}/` })).statusCode).toBe(405);
  });

  it('refuses to open a request in the global org', async () => {
    const res = await admin.post(`${A}/open/`, { title: 'x', apply_assets: [a.db1!.id] }, { 'x-jms-org': ROOT_ORG_ID });
    expect(res.statusCode).toBe(400);
  });
});

describe('two-level flows', () => {
  it('goes through an org admin, then a custom user; each acts only on their own step', async () => {
    const flows: Row[] = await get(admin, `${T}/flows/?type=apply_asset`);
    expect(flows).toHaveLength(1);
    expect(flows[0]).toMatchObject({ org_id: ROOT_ORG_ID, approval_level: 1 });
    // Editing the global flow from the Default org makes Default's own copy.
    const res = await put(admin, `${T}/flows/${flows[0]!.id}/`, {
      approval_level: 2,
      rules: [{ strategy: 'org_admin' }, { strategy: 'custom_user', assignees: [u.bob!.id] }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const copy = res.json();
    expect(copy.id).not.toBe(flows[0]!.id);
    expect(copy).toMatchObject({ org_id: DEFAULT_ORG_ID, approval_level: 2 });
    expect(copy.rules.map((r: Row) => r.strategy.value)).toEqual(['org_admin', 'custom_user']);
    expect(copy.rules[1].assignees_display).toEqual(['bob(bob)']);
    expect((await admin.get(`${T}/flows/${flows[0]!.id}/`, { 'x-jms-org': ROOT_ORG_ID })).json().approval_level).toBe(
      1,
    );

    const tk = await requestAssets(alice, { title: 'two steps', apply_assets: [a.web1!.id] });
    expect(tk.process_map.map((s: Row) => [s.approval_level, s.status, s.assignees_display])).toEqual([
      [1, 'active', ['carol(carol)']],
      [2, 'pending', ['bob(bob)']],
    ]);
    expect((await put(bob, `${A}/${tk.id}/approve/`)).statusCode).toBe(403);
    expect((await put(carol, `${A}/${tk.id}/approve/`)).statusCode).toBe(200);
    const mid = await ticketOf(alice, tk.id);
    expect(mid).toMatchObject({ approval_step: 2, state: { value: 'pending' }, status: { value: 'open' } });
    expect(mid.process_map.map((s: Row) => [s.state, s.status])).toEqual([
      ['approved', 'closed'],
      ['pending', 'active'],
    ]);
    // Carol's step is over; the second step is bob's, and "assigned to me" follows the step.
    expect((await put(carol, `${A}/${tk.id}/approve/`)).statusCode).toBe(403);
    expect((await get(bob, `${T}/tickets/?assignees__id=${u.bob!.id}&status=open`)).map((x: Row) => x.id)).toEqual([
      tk.id,
    ]);
    expect((await get(carol, `${T}/tickets/?assignees__id=${u.carol!.id}&status=open`)).map((x: Row) => x.id)).toEqual(
      [],
    );
    expect((await put(bob, `${A}/${tk.id}/approve/`)).statusCode).toBe(200);
    expect(await ticketOf(alice, tk.id)).toMatchObject({ state: { value: 'approved' }, approval_step: 2 });
    // Back to one level for the next tests.
    await put(admin, `${T}/flows/${copy.id}/`, { approval_level: 1, rules: [{ strategy: 'super_admin' }] });
  });

  it('checks flows: levels, strategies, custom assignees, one per type, never deleted', async () => {
    const bad = async (body: Row) => {
      const res = await admin.post(`${T}/flows/`, body, { 'x-jms-org': orgB });
      expect(res.statusCode, res.body).toBe(400);
      return res.json();
    };
    expect((await bad({ type: 'apply_asset', approval_level: 3, rules: [] })).approval_level).toEqual([
      'The approval level must be 1 or 2.',
    ]);
    expect((await bad({ type: 'apply_asset', approval_level: 2, rules: [{ strategy: 'org_admin' }] })).rules).toEqual([
      'Give one rule per approval level.',
    ]);
    expect(
      (await bad({ type: 'apply_asset', approval_level: 1, rules: [{ strategy: 'custom_user' }] })).rules[0],
    ).toEqual({
      assignees: ['Choose at least one assignee for custom users.'],
    });
    expect((await bad({ type: 'nope', approval_level: 1, rules: [{ strategy: 'org_admin' }] })).type).toBeDefined();
    const made = await admin.post(
      `${T}/flows/`,
      { type: 'apply_asset', approval_level: 1, rules: [{ strategy: 'org_admin' }] },
      { 'x-jms-org': orgB },
    );
    expect(made.statusCode, made.body).toBe(201);
    expect((await bad({ type: 'apply_asset', approval_level: 1, rules: [{ strategy: 'org_admin' }] })).type).toEqual([
      'A flow for this ticket type exists in this organisation.',
    ]);
    expect(
      (await admin.request({ method: 'DELETE', url: `${T}/flows/${made.json().id}/`, headers: { 'x-jms-org': orgB } }))
        .statusCode,
    ).toBe(405);
    // Another org's flow is not reachable from Default.
    expect((await admin.get(`${T}/flows/${made.json().id}/`)).statusCode).toBe(404);
  });
});

describe('bulk approval', () => {
  it('approves several tickets the caller is assigned to, and refuses the whole batch otherwise', async () => {
    const t1 = await requestAssets(alice, { apply_assets: [a.web1!.id] });
    const t2 = await requestAssets(bob, { apply_assets: [a.web1!.id] });
    const closed = await requestAssets(bob, { apply_assets: [a.web1!.id] });
    await put(bob, `${A}/${closed.id}/close/`);
    const refused = await put(admin, `${A}/bulk/?action=approve`, { tickets: [t1.id, closed.id] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toContain(closed.serial_num);
    expect((await ticketOf(alice, t1.id)).state.value).toBe('pending');
    expect((await put(admin, `${A}/bulk/?action=fly`, { tickets: [t1.id] })).statusCode).toBe(400);
    expect((await put(admin, `${T}/tickets/bulk/?action=approve`, { tickets: [t1.id] })).statusCode).toBe(405);
    // Alice (no tickets.change_ticket) may not bulk-act at all.
    expect((await put(alice, `${A}/bulk/?action=approve`, { tickets: [t1.id] })).statusCode).toBe(403);
    const ok = await put(admin, `${A}/bulk/?action=reject`, { tickets: [t1.id, t2.id] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await ticketOf(alice, t1.id)).state.value).toBe('rejected');
    expect((await ticketOf(bob, t2.id)).state.value).toBe('rejected');
  });
});

describe('lists, comments and messages', () => {
  it('lists my tickets and the ones assigned to me, with search and type filters', async () => {
    const mine: Row = await get(alice, `${T}/tickets/?applicant=${u.alice!.id}&limit=2&offset=0`);
    expect(mine.count).toBeGreaterThan(3);
    expect(mine.results).toHaveLength(2);
    expect(mine.results.every((x: Row) => x.applicant.id === u.alice!.id)).toBe(true);
    const found: Row[] = await get(alice, `${T}/tickets/?search=db%20access`);
    expect(found.map((x) => x.title)).toEqual(['db access']);
    expect(await get(alice, `${T}/apply-login-tickets/`)).toEqual([]);
    // Bob sees only his own tickets.
    expect(
      (await get(bob, `${T}/tickets/`)).every((x: Row) => x.applicant.id === u.bob!.id || x.approval_step === 2),
    ).toBe(true);
  });

  it('keeps comments of the applicant and assignees, for them only', async () => {
    const tk = await requestAssets(alice, { apply_assets: [a.web1!.id] });
    expect((await alice.post(`${T}/comments/`, { ticket: tk.id, body: 'urgent please' })).statusCode).toBe(201);
    expect((await admin.post(`${T}/comments/`, { ticket: tk.id, body: 'why?' })).statusCode).toBe(201);
    expect((await bob.post(`${T}/comments/`, { ticket: tk.id, body: 'me too' })).statusCode).toBe(404);
    expect((await alice.post(`${T}/comments/`, { ticket: tk.id, body: ' ' })).json()).toEqual({
      body: ['Write a comment.'],
    });
    const list: Row[] = await get(alice, `${T}/comments/?ticket_id=${tk.id}`);
    expect(list.map((c) => [c.user_display, c.body])).toEqual([
      ['alice(alice)', 'urgent please'],
      ['Administrator(admin)', 'why?'],
    ]);
    expect((await bob.get(`${T}/comments/?ticket_id=${tk.id}`)).statusCode).toBe(404);
  });

  it('tells the assignees of a new ticket and the applicant of the outcome, with a link', async () => {
    const tk = await requestAssets(alice, { title: 'notify me', apply_assets: [a.web1!.id] });
    const inbox = async (c: SessionClient) =>
      (await get(c, '/api/v1/notifications/site-messages/?limit=50')).results as Row[];
    const toAdmin = (await inbox(admin)).find((m) => m.content.subject === 'Ticket to approve: notify me');
    expect(toAdmin?.content.message).toContain(`/ui/tickets/tickets/${tk.id}?type=apply_asset`);
    await put(admin, `${A}/${tk.id}/approve/`);
    const toAlice = (await inbox(alice)).find((m) => m.content.subject === 'Your ticket was approved: notify me');
    expect(toAlice?.content.message).toContain('Administrator(admin) approved');
  });
});

describe('the operate log', () => {
  it('records opening, commenting on and deciding a ticket, under who did it', async () => {
    const tk = await requestAssets(alice, { title: 'audited request', apply_assets: [a.web1!.id] });
    expect((await alice.post(`${T}/comments/`, { ticket: tk.id, body: 'for the deploy' })).statusCode).toBe(201);
    expect((await put(admin, `${A}/${tk.id}/approve/`)).statusCode).toBe(200);
    const logs = (await get(admin, '/api/v1/audits/operate-logs/?resource=audited%20request')) as Row[];
    expect(logs.map((l) => [l.user, l.action.value, l.resource_type, l.org_id]).reverse()).toEqual([
      ['alice(alice)', 'create', 'Ticket', DEFAULT_ORG_ID],
      ['alice(alice)', 'update', 'Ticket', DEFAULT_ORG_ID],
      ['Administrator(admin)', 'update', 'Ticket', DEFAULT_ORG_ID],
    ]);
    // The model's display name in the reader's language, and the filter takes it as the list shows it.
    for (const [cookie, name] of [
      ['zh-hans', '工单'],
      ['ja', 'チケット'],
    ]) {
      const shown = (
        await admin.get(
          `/api/v1/audits/operate-logs/?resource=audited%20request&resource_type=${encodeURIComponent(name!)}`,
          {
            cookie: `${admin.jar.header()}; django_language=${cookie}`,
          },
        )
      ).json() as Row[];
      expect(shown.map((l) => l.resource_type)).toEqual([name, name, name]);
    }
    const activity = (
      await admin.get(`/api/v1/audits/activities/?resource_id=${tk.id}`, {
        cookie: `${admin.jar.header()}; django_language=zh-hans`,
      })
    ).json() as Row[];
    expect(activity.map((x) => x.content)).toContain('alice(alice) 创建了工单 audited request');
    const detail = (await get(admin, `/api/v1/audits/activities/?resource_id=${tk.id}`)) as Row[];
    expect(detail.length).toBeGreaterThanOrEqual(3);
    const approval = (await get(admin, `/api/v1/audits/operate-logs/${logs[0]!.id}/`)) as Row;
    expect(approval.diff).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'state', before: 'pending', after: 'approved' })]),
    );
  });
});
