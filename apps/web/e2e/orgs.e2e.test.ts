import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { BUILTIN_ROLE_IDS, ORG_COOKIE } from '@gatehouse/contract';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, newContext, openAsAdmin, pickMenuItem, screenshot, signIn } from './browser.ts';

/**
 * Issue 6, organisations: create one in the settings view, switch to it from the navbar selector
 * (the address loses its id and the page reloads into the new org), and an auditor-only member.
 */

let browser: Browser;
let ctx: BrowserContext;
let page: Page;
const stamp = Date.now().toString(36);
const ORG_B = `Org B ${stamp}`;

/** Calls the API with a context's session (and an org, as the X-JMS-ORG header). */
/** Calls the API as a context's user, in an org when given (the X-JMS-ORG header). */
const api = <T>(c: BrowserContext, method: string, url: string, data?: unknown, org?: string): Promise<T> =>
  apiCall<T>(c, method, url, data, org ? { 'X-JMS-ORG': org } : {});

const rows = () => page.locator('[data-testid="resource-list"] tbody tr.ant-table-row');

beforeAll(async () => {
  ({ browser, ctx, page } = await openAsAdmin(inject('baseURL'), E2E_ADMIN_PASSWORD));
});
afterAll(async () => {
  await browser.close();
});

describe('organisations', () => {
  let orgB = '';

  it('creates organisation B in /ui/settings/orgs/ and lists it with its counts', async () => {
    await page.goto('/ui/settings/orgs/create');
    const form = page.locator('form');
    await form.getByLabel('Name').fill(ORG_B);
    await form.getByLabel('Comment').fill('e2e');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL('**/ui/settings/orgs/');
    await expect.poll(() => rows().filter({ hasText: ORG_B }).count()).toBe(1);
    const found = await api<{ id: string; name: string }[]>(
      ctx,
      'GET',
      `/api/v1/orgs/orgs/?name=${encodeURIComponent(ORG_B)}`,
    );
    orgB = found[0]!.id;
    // The counts columns are there, the new org holds nothing yet.
    const headers = await page.locator('[data-testid="resource-list"] thead th').allTextContents();
    expect(headers).toEqual(expect.arrayContaining(['Name', 'Users', 'User groups', 'Assets', 'Asset permissions']));
    expect(await rows().filter({ hasText: ORG_B }).locator('td').allTextContents()).toEqual(
      expect.arrayContaining(['0']),
    );
    await screenshot(page, 'orgs-list');

    // The default org's detail: its counts, and its members with their org roles.
    await rows().filter({ hasText: 'DEFAULT' }).getByRole('link', { name: 'DEFAULT' }).click();
    await page.getByTestId('detail-card').waitFor();
    expect(await page.getByTestId('detail-card').textContent()).toContain('Asset permissions');
    await page.getByRole('tab', { name: 'Members' }).click();
    await expect.poll(() => rows().filter({ hasText: 'Administrator' }).count()).toBeGreaterThan(0);
    await screenshot(page, 'orgs-detail-members');
  });

  it("switches to B from a user detail with the navbar selector and lands on B's user list", async () => {
    // One user in B only, one in the default org only.
    const inB = await api<{ id: string }>(
      ctx,
      'POST',
      '/api/v1/users/users/',
      { name: `In B ${stamp}`, username: `inb_${stamp}`, email: `inb_${stamp}@e2e.test` },
      orgB,
    );
    const inDefault = await api<{ id: string }>(ctx, 'POST', '/api/v1/users/users/', {
      name: `In Default ${stamp}`,
      username: `indef_${stamp}`,
      email: `indef_${stamp}@e2e.test`,
    });
    expect(inB.id).toBeTruthy();
    const before = await page.evaluate(() => localStorage.getItem('jms_current_org_admin'));

    await page.goto(`/ui/console/users/users/${inDefault.id}`);
    await page.getByTestId('detail-card').waitFor();
    await page.getByTestId('org-selector').click();
    await pickMenuItem(page, ORG_B, true);
    // The id is dropped from the address, then the page reloads in B.
    await page.waitForURL('**/ui/console/users/users/');
    await page.waitForLoadState('load');

    await expect.poll(() => page.getByTestId('org-selector').textContent(), { timeout: 10_000 }).toContain(ORG_B);
    await expect
      .poll(
        () =>
          rows()
            .filter({ hasText: `inb_${stamp}` })
            .count(),
        { timeout: 10_000 },
      )
      .toBe(1);
    expect(
      await rows()
        .filter({ hasText: `indef_${stamp}` })
        .count(),
    ).toBe(0);

    // Stored: the org per user, the previous org, and the cookie every request carries.
    const stored = await page.evaluate(() => ({
      cur: localStorage.getItem('jms_current_org_admin'),
      pre: localStorage.getItem('PRE_ORG_admin'),
    }));
    expect(JSON.parse(stored.cur!).id).toBe(orgB);
    expect(JSON.parse(stored.pre!).id).toBe(JSON.parse(before!).id);
    expect((await ctx.cookies()).find((c) => c.name === ORG_COOKIE)?.value).toBe(orgB);
    await screenshot(page, 'orgs-switched-to-b');
  });

  it("offers an Org Auditor of B the audit view only: no console, and B's login logs", async () => {
    const username = `auditb_${stamp}`;
    await api(
      ctx,
      'POST',
      '/api/v1/users/users/',
      {
        name: `Auditor B ${stamp}`,
        username,
        email: `${username}@e2e.test`,
        password_strategy: 'custom',
        password: 'Auditor-pass1',
        system_roles: [BUILTIN_ROLE_IDS.User],
        org_roles: [BUILTIN_ROLE_IDS.OrgAuditor],
      },
      orgB,
    );
    const auditor = await newContext(browser, inject('baseURL'));
    const p = await auditor.newPage();
    await p.goto('/core/auth/login/');
    await signIn(p, username, 'Auditor-pass1');
    await p.waitForURL((u) => u.pathname.startsWith('/ui/'));
    await api(auditor, 'PATCH', '/api/v1/users/profile/', { is_first_login: false });
    const profile = await api<{ audit_orgs: { id: string }[]; console_orgs: unknown[]; perms: string[] }>(
      auditor,
      'GET',
      '/api/v1/users/profile/',
    );
    expect(profile.audit_orgs.map((o) => o.id)).toEqual([orgB]);
    expect(profile.console_orgs).toEqual([]);

    // The console is not offered: asking for it lands in the audit view (its dashboard), in B.
    await p.goto('/ui/console/users/users/');
    await p.waitForURL('**/ui/audit/dashboard**');
    await p.getByTestId('dashboard-audit').waitFor();
    await p.goto('/ui/audit/audits/login-logs/');
    await expect.poll(() => p.getByTestId('org-selector').textContent(), { timeout: 10_000 }).toContain(ORG_B);
    // B's login logs: the auditor's own sign-in is there, the admin (no member of B) is not.
    const logRows = p.locator('[data-testid="resource-list"] tbody tr.ant-table-row');
    await expect.poll(() => logRows.filter({ hasText: username }).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await logRows.filter({ hasText: 'admin' }).count()).toBe(0);
    await p
      .getByRole('button', { name: 'Got it' })
      .click({ timeout: 5000 })
      .catch(() => undefined);
    await screenshot(p, 'audit-login-logs');
    await p.getByTestId('view-switcher').click();
    await expect.poll(() => p.getByRole('menuitem').allTextContents()).toContain('Audit');
    expect(await p.getByRole('menuitem').allTextContents()).not.toContain('Console');
    await p.keyboard.press('Escape');

    // The detail of a log is one card, read-only.
    await logRows.filter({ hasText: username }).first().getByRole('link').first().click();
    await p.getByTestId('detail-card').waitFor();
    expect(await p.getByTestId('detail-card').textContent()).toContain(username);
    expect(await p.getByRole('button', { name: 'Update' }).count()).toBe(0);
    await auditor.close();
  });
});
