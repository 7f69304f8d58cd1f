import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_ROLE_IDS } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { makeAccount, makeAsset, makePerm, makeUser, type Row } from '../../../test-support/perms.ts';
import { seedSession } from '../../../test-support/auditSeed.ts';
import { put, signIn, T } from '../../../test-support/tickets.ts';

/**
 * A login-asset rule with review (issue 19): a connection token asked with `?create_ticket=1`
 * opens a login-asset ticket for the rule's recipient and answers how to follow it; the user
 * polls `super-tickets/<id>/status/`; once approved the token is given. Giving up closes it.
 * A component (SystemComponent, `tickets.add_superticket`) asks the same through
 * `acls/login-asset/check/`.
 */
let t: TestApp;
let admin: SessionClient;
let user: SessionClient;
let reviewer: SessionClient;
let host: Row;
let ids: { connie: string; rita: string };
const CT = '/api/v1/authentication/connection-token/';

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  const u = await makeUser(admin, 'connie');
  const r = await makeUser(admin, 'rita');
  ids = { connie: u.id, rita: r.id };
  await makeUser(admin, 'otto');
  host = await makeAsset(admin, [], undefined, 'reviewed-host');
  await makeAccount(admin, host.id, 'root');
  await makePerm(admin, { users: [u.id], assets: [host.id], accounts: ['@ALL'] });
  const acl = await admin.post('/api/v1/acls/login-asset-acls/', {
    name: 'review connie',
    users: { type: 'ids', ids: [u.id] },
    assets: { type: 'all' },
    accounts: ['@ALL'],
    action: 'review',
    reviewers: [r.id],
  });
  expect(acl.statusCode, acl.body).toBe(201);
  user = await signIn(t, 'connie');
  reviewer = await signIn(t, 'rita');
});
afterAll(async () => t.close());

/** A user holding the SystemComponent role (what a terminal component signs in as), signed in. */
async function componentClient(username: string) {
  const comp = await makeUser(admin, username);
  await t.deps.database.db
    .insertInto('rbac_rolebinding')
    .values({
      id: randomUUID(),
      user_id: comp.id,
      role_id: BUILTIN_ROLE_IDS.SystemComponent,
      scope: 'system',
      org_id: null,
      created_by: 'test',
      date_created: new Date().toISOString(),
    })
    .execute();
  return signIn(t, username);
}

const ask = (query = '') =>
  user.post(`${CT}${query}`, { asset: host.id, account: 'root', protocol: 'ssh', connect_method: 'web_cli' });

describe('login-asset review', () => {
  it('opens one ticket to wait on, and gives the token once the recipient approves', async () => {
    expect((await ask()).json().code).toBe('acl_review');
    expect((await reviewer.get(`${T}/apply-login-asset-tickets/`)).json()).toEqual([]);
    const held = await ask('?create_ticket=1');
    expect(held.statusCode).toBe(400);
    const body = held.json();
    expect(body).toMatchObject({
      code: 'acl_review',
      check_review_status: { method: 'GET', url: `/api/v1/tickets/super-tickets/${body.ticket_id}/status/` },
      close_review: { method: 'DELETE' },
      ticket_detail_url: `/ui/tickets/tickets/${body.ticket_id}?type=login_asset_confirm`,
      reviewers: ['rita(rita)'],
    });
    // Asking again waits on the same ticket.
    expect((await ask('?create_ticket=1')).json().ticket_id).toBe(body.ticket_id);
    const status = await user.get(body.check_review_status.url);
    expect(status.json()).toMatchObject({ id: body.ticket_id, state: { value: 'pending' }, status: { value: 'open' } });
    const tk = (await reviewer.get(`${T}/tickets/${body.ticket_id}/`)).json();
    expect(tk).toMatchObject({
      type: { value: 'login_asset_confirm' },
      apply_login_user: 'connie(connie)',
      apply_login_asset: 'reviewed-host(10.0.0.1)',
      apply_login_account: 'root',
    });
    expect((await put(user, `${T}/apply-login-asset-tickets/${body.ticket_id}/approve/`)).statusCode).toBe(403);
    expect((await put(reviewer, `${T}/apply-login-asset-tickets/${body.ticket_id}/approve/`)).statusCode).toBe(200);
    expect((await user.get(body.check_review_status.url)).json()).toMatchObject({
      state: { value: 'approved' },
      processor: 'rita(rita)',
    });
    const token = await ask();
    expect(token.statusCode, token.body).toBe(201);
  });

  it('lets the user give up, and hides the status from others', async () => {
    // The earlier approval's window is over.
    await t.deps.database.db.updateTable('tickets_ticket').set({ date_updated: '2000-01-01T00:00:00.000Z' }).execute();
    const held = (await ask('?create_ticket=1')).json();
    expect(held.code).toBe('acl_review');
    // Someone neither applicant nor assignee does not see it.
    expect((await (await signIn(t, 'otto')).get(held.check_review_status.url)).statusCode).toBe(404);
    const closed = await user.request({ method: 'DELETE', url: held.close_review.url });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().state.value).toBe('closed');
    expect((await put(reviewer, `${T}/apply-login-asset-tickets/${held.ticket_id}/approve/`)).statusCode).toBe(400);
    expect((await ask()).json().code).toBe('acl_review');
  });

  it('answers a component checking a login, opening the ticket to wait on', async () => {
    await t.deps.database.db.updateTable('tickets_ticket').set({ date_updated: '2000-01-01T00:00:00.000Z' }).execute();
    const component = await componentClient('koko_comp');
    const CHECK = '/api/v1/acls/login-asset/check/';
    const body = { user_id: ids.connie, asset_id: host.id, account_username: 'root' };
    // A user cannot ask it.
    expect((await user.post(CHECK, body)).statusCode).toBe(403);
    const bad = await component.post(CHECK, { user_id: ids.connie });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      asset_id: ['This field is required.'],
      account_username: ['This field is required.'],
    });
    const unknown = await component.post(CHECK, { ...body, asset_id: randomUUID() });
    expect(unknown.json()).toEqual({ asset_id: ['This object does not exist.'] });
    // A user under no review rule goes straight through.
    expect((await component.post(CHECK, { ...body, user_id: ids.rita })).json()).toEqual({ need_review: false });
    const held = await component.post(CHECK, body);
    expect(held.statusCode, held.body).toBe(200);
    const h = held.json();
    expect(h).toMatchObject({
      need_review: true,
      check_review_status: { method: 'GET', url: `/api/v1/tickets/super-tickets/${h.ticket_id}/status/` },
      close_review: { method: 'DELETE' },
      reviewers: ['rita(rita)'],
    });
    expect((await component.post(CHECK, body)).json().ticket_id).toBe(h.ticket_id);
    // The component follows it through the status URL it was given (as the system administrator,
    // who holds every permission, may); a plain user who is not part of it does not.
    expect((await component.get(h.check_review_status.url)).json()).toMatchObject({ state: { value: 'pending' } });
    expect((await admin.get(h.check_review_status.url)).statusCode).toBe(200);
    expect((await (await signIn(t, 'otto')).get(h.check_review_status.url)).statusCode).toBe(404);
    expect((await put(reviewer, `${T}/apply-login-asset-tickets/${h.ticket_id}/approve/`)).statusCode).toBe(200);
    expect((await component.post(CHECK, body)).json()).toEqual({ need_review: false });
  });

  it('opens a command-confirm ticket for a component holding a command (command-review/)', async () => {
    const REVIEW = '/api/v1/acls/command-filter-acls/command-review/';
    const component = await componentClient('koko_cmd');
    const group = await admin.post('/api/v1/acls/command-groups/', { name: 'reboots', content: 'reboot' });
    const rule = await admin.post('/api/v1/acls/command-filter-acls/', {
      name: 'review reboots',
      action: 'review',
      users: { type: 'all' },
      assets: { type: 'all' },
      accounts: ['@ALL'],
      command_groups: [group.json().id],
      reviewers: [ids.rita],
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const session = await seedSession(t.deps.database.db, {
      date_start: new Date().toISOString(),
      is_finished: false,
      user_id: ids.connie,
      user: 'connie(connie)',
    });
    const body = { session_id: session, cmd_filter_acl_id: rule.json().id, run_command: 'reboot now' };
    // Users cannot ask it; a component must name a session and a review rule that exist.
    expect((await user.post(REVIEW, body)).statusCode).toBe(403);
    expect((await component.post(REVIEW, { session_id: session })).json()).toEqual({
      cmd_filter_acl_id: ['This field is required.'],
      run_command: ['This field is required.'],
    });
    expect((await component.post(REVIEW, { ...body, session_id: randomUUID() })).statusCode).toBe(400);
    const held = await component.post(REVIEW, body);
    expect(held.statusCode, held.body).toBe(200);
    const h = held.json();
    expect(h).toMatchObject({
      check_review_status: { method: 'GET', url: `/api/v1/tickets/super-tickets/${h.ticket_id}/status/` },
      close_review: { method: 'DELETE' },
      reviewers: ['rita(rita)'],
    });
    // The rule's recipient sees it assigned, with the command, and the component follows its decision.
    const assigned = (await reviewer.get(`${T}/apply-command-tickets/${h.ticket_id}/`)).json();
    expect(assigned).toMatchObject({ apply_run_command: 'reboot now', applicant: { id: ids.connie } });
    expect((await put(reviewer, `${T}/apply-command-tickets/${h.ticket_id}/approve/`)).statusCode).toBe(200);
    expect((await component.get(h.check_review_status.url)).json()).toMatchObject({ state: { value: 'approved' } });
  });
});
