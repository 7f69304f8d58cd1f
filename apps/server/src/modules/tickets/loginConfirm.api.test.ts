import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_PATH } from '@gatehouse/contract';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { makeUser, PASSWORD, type Row } from '../../../test-support/perms.ts';
import { put, signIn, T } from '../../../test-support/tickets.ts';

/**
 * A login rule with review (issue 19, contract §2.3): the sign-in waits on a login-confirm ticket
 * assigned to the rule's recipient, for the login page and the token API alike; approval lets the
 * credentials through, rejection ends the wait with `login_confirm_error`, and the user may give up.
 */
let t: TestApp;
let admin: SessionClient;
let reviewer: SessionClient;
const u: Record<string, Row> = {};
const STATUS = '/api/v1/authentication/login-confirm-ticket/status/';
const L = `${T}/apply-login-tickets`;

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  for (const name of ['dave', 'erin', 'rev']) u[name] = await makeUser(admin, name);
  reviewer = await signIn(t, 'rev');
  const rule = await admin.post('/api/v1/acls/login-acls/', {
    name: 'review dave and erin',
    action: 'review',
    priority: 1,
    users: { type: 'ids', ids: [u.dave!.id, u.erin!.id] },
    reviewers: [u.rev!.id],
  });
  expect(rule.statusCode, rule.body).toBe(201);
});
afterAll(async () => t.close());

const openTickets = async (): Promise<Row[]> => (await reviewer.get(`${L}/?status=open`)).json();

describe('login confirm', () => {
  it('holds a sign-in on the login page until the reviewer approves, without a new ticket per try', async () => {
    const dave = new SessionClient(t.app);
    const first = await dave.login('dave', PASSWORD);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ ok: false, error: 'login_confirm_wait', data: { username: 'dave' } });
    const ticketId = first.json().data.ticket_id;
    // Not signed in while waiting.
    expect((await dave.get('/api/v1/users/profile/')).statusCode).toBe(401);
    expect((await dave.get(STATUS)).json()).toMatchObject({
      error: 'login_confirm_wait',
      data: { ticket_id: ticketId },
    });
    expect((await dave.post(LOGIN_PATH, { username: 'dave', password: PASSWORD })).json().error).toBe(
      'login_confirm_wait',
    );
    const open = await openTickets();
    expect(open.map((x) => x.id)).toEqual([ticketId]);
    expect(open[0]).toMatchObject({
      type: { value: 'login_confirm' },
      title: 'Login confirm: dave(dave)',
      applicant: { id: u.dave!.id },
      apply_login_ip: expect.any(String),
    });
    // The applicant cannot approve their own sign-in.
    expect((await put(dave, `${L}/${ticketId}/approve/`)).statusCode).toBe(401);
    expect((await put(reviewer, `${L}/${ticketId}/approve/`)).statusCode).toBe(200);
    expect((await dave.get(STATUS)).json()).toEqual({ msg: 'ok' });
    const done = await dave.post(LOGIN_PATH, { username: 'dave', password: PASSWORD });
    expect(done.statusCode, done.body).toBe(200);
    expect((await dave.get('/api/v1/users/profile/')).json().username).toBe('dave');
    // A later sign-in asks again.
    const again = await new SessionClient(t.app).login('dave', PASSWORD);
    expect(again.json().error).toBe('login_confirm_wait');
    expect(again.json().data.ticket_id).not.toBe(ticketId);
  });

  it('answers the token API with the contract’s login_confirm states, and a rejection ends the wait', async () => {
    const api = new SessionClient(t.app);
    const auth = () => api.post('/api/v1/authentication/auth/', { username: 'erin', password: PASSWORD });
    const first = await auth();
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      error: 'login_confirm_wait',
      msg: 'Waiting for a reviewer to approve this sign-in',
      data: { ticket_id: expect.any(String) },
    });
    const ticketId = first.json().data.ticket_id;
    expect((await put(reviewer, `${L}/${ticketId}/reject/`)).statusCode).toBe(200);
    expect((await api.get(STATUS, { 'accept-language': 'zh' })).json()).toMatchObject({
      error: 'login_confirm_error',
      msg: '登录复核工单已拒绝',
    });
    const refused = await auth();
    expect(refused.json()).toEqual({
      error: 'login_confirm_error',
      msg: 'Login confirm ticket was rejected',
      data: { ticket_id: ticketId, username: 'erin' },
    });
    // The next try opens a new ticket; once approved the token comes.
    const next = (await auth()).json();
    expect(next.error).toBe('login_confirm_wait');
    expect((await put(reviewer, `${L}/${next.data.ticket_id}/approve/`)).statusCode).toBe(200);
    const token = await auth();
    expect(token.statusCode, token.body).toBe(201);
    expect(token.json().keyword).toBe('Bearer');
  });

  it('lets the user give up: the ticket closes and the reviewer can no longer approve it', async () => {
    const dave = new SessionClient(t.app);
    const ticketId = (await dave.login('dave', PASSWORD)).json().data.ticket_id;
    expect((await dave.request({ method: 'DELETE', url: STATUS })).json()).toEqual({ msg: 'ok' });
    const tk = (await reviewer.get(`${T}/tickets/${ticketId}/`)).json();
    expect(tk.state.value).toBe('closed');
    expect((await put(reviewer, `${L}/${ticketId}/approve/`)).statusCode).toBe(400);
    expect((await dave.get(STATUS)).statusCode).toBe(400);
  });
});
