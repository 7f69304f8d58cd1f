import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { adminIdentity, commandRule, hostWithAccounts, KEY, openShell } from '../../../test-support/gateway.ts';
import { startShellSshd, type SshdWithUsers } from '../../../test-support/sshd.ts';
import { makeUser, type Row } from '../../../test-support/perms.ts';
import { put, signIn, T } from '../../../test-support/tickets.ts';

/**
 * A command under review on a real OpenSSH (issue 19): the held line becomes a command-confirm
 * ticket for the rule's recipient, runs once the recipient approves it through the API, is
 * refused when rejected, and Ctrl+C closes its ticket; the reviewer pauses, resumes and ends the
 * session from the ticket.
 */
let t: TestApp;
let admin: SessionClient;
let reviewer: SessionClient;
let sshd: SshdWithUsers;
let target: { host: Row; password: Row };
let adminUser: { id: string; name: string; username: string };
const C = `${T}/apply-command-tickets`;

beforeAll(async () => {
  sshd = await startShellSshd();
  t = await createTestApp();
  admin = await adminClient(t.app);
  target = await hostWithAccounts(admin, sshd);
  adminUser = await adminIdentity(t.app);
  const rev = await makeUser(admin, 'reviewer');
  reviewer = await signIn(t, 'reviewer');
  await commandRule(admin, target.host.id, 'review date', 'date', 'review', [rev.id]);
}, 30_000);
afterAll(async () => {
  sshd?.stop();
  await t?.close();
});

async function openTicket(): Promise<Row> {
  for (let i = 0; i < 100; i++) {
    const open: Row[] = (await reviewer.get(`${C}/?status=open`)).json();
    if (open.length) return open[0]!;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('no command ticket opened');
}

describe('commands under review', () => {
  it('holds the command on a ticket, runs it once approved, refuses it when rejected, closes it on Ctrl+C', async () => {
    const { s, term } = await openShell(t.app, {
      user: adminUser,
      assetId: target.host.id,
      accountId: target.password.id,
    });
    const year = String(new Date().getFullYear());

    let from = term.text.length;
    await term.type('date +%Y-approved\r');
    await term.waitFor('needs approval', from);
    const tk = await openTicket();
    expect(tk).toMatchObject({
      type: { value: 'command_confirm' },
      apply_run_command: 'date +%Y-approved',
      apply_run_user: expect.stringContaining('admin'),
      apply_run_asset: expect.stringContaining(target.host.name),
      apply_from_session: { id: s.id },
      apply_from_cmd_filter_acl: { name: 'review date' },
    });
    expect(tk.process_map[0].assignees_display).toEqual(['reviewer(reviewer)']);
    expect(term.text.slice(from)).not.toContain(`${year}-approved`);
    // The user who ran it cannot approve their own command.
    expect((await put(admin, `${C}/${tk.id}/approve/`)).statusCode).toBe(403);
    expect((await put(reviewer, `${C}/${tk.id}/approve/`)).statusCode).toBe(200);
    await term.waitFor(`${year}-approved`, from);

    from = term.text.length;
    await term.type('date +%Y-denied\r');
    await term.waitFor('needs approval', from);
    const denied = await openTicket();
    expect((await put(reviewer, `${C}/${denied.id}/reject/`)).statusCode).toBe(200);
    await term.waitFor('Command not approved; it was not run.', from);
    expect(term.text.slice(from)).not.toContain(`${year}-denied`);

    from = term.text.length;
    await term.type('date +%Y-cancelled\r');
    await term.waitFor('needs approval', from);
    const cancelled = await openTicket();
    await term.type(KEY.ctrlC);
    await term.waitFor('Command cancelled.', from);
    for (let i = 0; i < 50; i++) {
      if ((await reviewer.get(`${T}/tickets/${cancelled.id}/`)).json().state.value === 'closed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await reviewer.get(`${T}/tickets/${cancelled.id}/`)).json().state.value).toBe('closed');
    expect((await put(reviewer, `${C}/${cancelled.id}/approve/`)).statusCode).toBe(400);

    // The reviewer pauses, resumes and ends the session from the ticket; the user who ran it may not.
    const S = `${T}/tickets/${tk.id}/session/`;
    expect((await reviewer.get(S)).json()).toMatchObject({ id: s.id, is_finished: false, is_locked: false });
    expect((await admin.post(S, { action: 'kill' })).statusCode).toBe(403);
    expect((await reviewer.post(S, { action: 'fly' })).statusCode).toBe(400);
    expect((await reviewer.post(S, { action: 'lock' })).statusCode).toBe(200);
    expect((await reviewer.get(S)).json().is_locked).toBe(true);
    expect((await reviewer.post(S, { action: 'unlock' })).statusCode).toBe(200);
    expect((await reviewer.get(S)).json().is_locked).toBe(false);
    expect((await reviewer.post(S, { action: 'kill' })).statusCode).toBe(200);
    await term.waitEnd(20_000);
    for (let i = 0; i < 50 && !(await reviewer.get(S)).json().is_finished; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect((await reviewer.get(S)).json().is_finished).toBe(true);
    expect((await reviewer.post(S, { action: 'lock' })).statusCode).toBe(400);
    await s.close();
  }, 90_000);
});
