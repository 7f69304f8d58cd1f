import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD, startServer, type RunningServer } from './server.ts';
import { apiCall, launchBrowser, newContext, screenshot, signInAdmin } from './browser.ts';
import { startSshdAsset, type SshdAsset } from './sshdAsset.ts';

/**
 * The job centre's console (features/workbench/ops/) against a real OpenSSH asset: the quick job
 * runs a command on the asset picked in the granted tree, its output streams into the terminal
 * and each host's result shows; a reload of `?taskId=` shows the same run; a saved job runs from
 * its list into its execution; the playbook workspace opens main.yml, saves it, adds, renames and
 * deletes a file; the audit's job log lists the runs; with the centre turned off its pages say so
 * and the menu hides it. The file starts a server of its own: turning the centre off applies to
 * everyone.
 */
let server: RunningServer;
let browser: Browser;
let admin: BrowserContext;
let page: Page;
let asset: SshdAsset;
const DEFAULT_ORG = '00000000-0000-0000-0000-000000000002';
const stamp = Date.now().toString(36);
const names = {
  node: `e2e-jobs-${stamp}`,
  host: `jobs-host-${stamp}`,
  job: `nightly-${stamp}`,
  playbook: `pb-${stamp}`,
  playbookJob: `pb-job-${stamp}`,
};
type Row = Record<string, unknown> & { id: string };

const api = <T>(method: string, url: string, data?: unknown): Promise<T> =>
  apiCall<T>(admin, method, url, data, { 'X-JMS-ORG': DEFAULT_ORG });
const shot = (p: Page, name: string) => screenshot(p, `jobs-${name}`);
const terminalText = (p: Page) => p.getByTestId('task-log-terminal').locator('.xterm-rows').innerText();

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  admin = await newContext(browser, server.url, { width: 1440, height: 900 });
  page = await admin.newPage();
  await signInAdmin(page, E2E_ADMIN_PASSWORD);
  const node = await api<Row>('POST', '/api/v1/assets/nodes/', { full_value: names.node });
  asset = await startSshdAsset(admin, names.host, DEFAULT_ORG, { nodes: [node.id] });
  // Jobs run on the user's granted assets: the admin is granted the host with its accounts.
  const me = await apiCall<Row>(admin, 'GET', '/api/v1/users/profile/');
  await api('POST', '/api/v1/perms/asset-permissions/', {
    name: `jobs-${stamp}`,
    users: [me.id],
    assets: [asset.host.id],
    accounts: ['@ALL'],
    actions: ['all'],
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  asset?.stop();
  await server?.stop();
});

describe('the quick job', () => {
  it('runs a command on the asset checked in the tree and shows its output and result', async () => {
    await page.goto('/ui/workbench/ops/quick-job');
    const tree = page.getByTestId('job-target-tree');
    await tree.getByPlaceholder('Search assets').fill(names.host);
    await tree.getByPlaceholder('Search assets').press('Enter');
    const hostNode = tree.locator('.ant-tree-treenode', { has: page.getByTestId('target-asset') }).filter({
      hasText: names.host,
    });
    await hostNode.locator('.ant-tree-checkbox').click();
    await expect.poll(() => page.getByTestId('quick-target-count').innerText()).toContain('Assets selected: 1 ');
    await page.getByTestId('quick-runas').locator('input').fill(asset.account.username);
    await page.getByTestId('quick-command').fill('echo gatehouse-$((40+2))');
    await shot(page, 'quick-job-ready');
    await page.getByTestId('quick-run').click();
    await page.waitForURL(/taskId=/);
    await expect.poll(() => terminalText(page), { timeout: 60_000 }).toContain('gatehouse-42');
    const results = page.getByTestId('host-results');
    await results.getByText(names.host).waitFor({ timeout: 60_000 });
    expect(await results.getByTestId('host-status').first().innerText()).toBe('Success');
    expect(await page.getByTestId('execution-status').innerText()).toBe('Success');
    await shot(page, 'quick-job-done');
  });

  it('shows the same run again after a reload of its address', async () => {
    await page.reload();
    await expect.poll(() => page.getByTestId('quick-command').inputValue()).toBe('echo gatehouse-$((40+2))');
    await expect.poll(() => terminalText(page), { timeout: 30_000 }).toContain('gatehouse-42');
    await page.getByTestId('host-results').getByText(names.host).waitFor();
  });
});

describe('jobs and executions', () => {
  it('runs a saved job from its list into its execution, listed in executions and the audit job log', async () => {
    await api('POST', '/api/v1/ops/jobs/', {
      name: names.job,
      type: 'adhoc',
      module: 'shell',
      args: 'echo saved-job-ran',
      assets: [asset.host.id],
      runas: asset.account.username,
      runas_policy: 'skip',
      is_periodic: true,
      crontab: '0 3 * * *',
    });
    await page.goto('/ui/workbench/ops/job/');
    const row = page.locator('tr.ant-table-row', { hasText: names.job });
    await row.waitFor();
    await shot(page, 'jobs-list');
    await row.locator('[data-action="run"]').click();
    await page.waitForURL(/\/workbench\/ops\/executions\/[\w-]+/);
    await expect.poll(() => terminalText(page), { timeout: 60_000 }).toContain('saved-job-ran');
    await page.getByTestId('host-results').getByText(names.host).waitFor({ timeout: 60_000 });
    await shot(page, 'execution-detail');

    await page.goto('/ui/workbench/ops/executions/');
    await page.locator('tr.ant-table-row', { hasText: names.job }).first().waitFor();
    await shot(page, 'executions');

    await page.goto('/ui/audit/audits/job-execution-log/');
    await page.locator('tr.ant-table-row').first().waitFor();
    await shot(page, 'audit-job-log');
  });

  it('edits the job and previews its crontab', async () => {
    await page.goto('/ui/workbench/ops/job/');
    await page.locator('tr.ant-table-row', { hasText: names.job }).getByRole('link', { name: names.job }).click();
    await page.getByTestId('resource-detail').waitFor();
    await page.getByRole('button', { name: 'Update' }).click();
    const preview = page.getByTestId('crontab-preview');
    await preview.waitFor();
    expect(await preview.locator('li').count()).toBe(5);
    await page.getByLabel('Crontab').fill('0 3 * * * *');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('A crontab has 5 fields (minute hour day month weekday); this one has 6.').waitFor();
    await shot(page, 'job-form-crontab-error');
  });
});

describe('the playbook workspace', () => {
  it('opens main.yml first, saves it, and adds, renames and deletes a file', async () => {
    const pb = await api<Row>('POST', '/api/v1/ops/playbooks/', { name: names.playbook });
    const files = `/api/v1/ops/playbook/${pb.id}/file/`;
    await page.goto(`/ui/workbench/ops/playbook/${pb.id}/workspace`);
    await expect.poll(() => page.getByTestId('ws-open-file').innerText()).toBe('main.yml');
    const editor = page.getByTestId('ws-editor');
    await editor.fill('- hosts: all\n  tasks:\n    - shell: echo from-editor\n');
    await page.getByTestId('ws-save').click();
    await expect
      .poll(async () => (await api<{ content: string }>('GET', `${files}?key=main.yml`)).content)
      .toContain('from-editor');

    await page.getByTestId('ws-new-file').click();
    await page.getByLabel('Name', { exact: true }).fill('vars.yml');
    await page.getByRole('button', { name: 'OK' }).click();
    await page.getByTestId('ws-tree').getByText('vars.yml').waitFor();
    await expect.poll(() => page.getByTestId('ws-open-file').innerText()).toBe('vars.yml');
    await expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);
    await shot(page, 'playbook-workspace');

    await page.getByTestId('ws-rename').click();
    await page.getByLabel('Name', { exact: true }).fill('vars2.yml');
    await page.getByRole('button', { name: 'OK' }).click();
    await page.getByTestId('ws-tree').getByText('vars2.yml').waitFor();
    await page.getByTestId('ws-tree').getByText('vars2.yml').click();
    await page.getByTestId('ws-delete').click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
    await expect.poll(() => page.getByTestId('ws-tree').getByText('vars2.yml').count()).toBe(0);

    await page.goto('/ui/workbench/ops/templates?activeTab=playbook');
    await page.locator('tr.ant-table-row', { hasText: names.playbook }).waitFor();
    await shot(page, 'templates-playbooks');
    await page.goto('/ui/workbench/ops/templates?activeTab=adhoc');
    await page.getByTestId('resource-list').waitFor();
    await shot(page, 'templates-adhoc');
  });
});

describe('a playbook job', () => {
  it('offers the playbook picker, runs the playbook written in the workspace from its list, and streams it', async () => {
    const pb = (await api<Row[]>('GET', '/api/v1/ops/playbooks/')).find((p) => p.name === names.playbook)!;
    await api('POST', '/api/v1/ops/jobs/', {
      name: names.playbookJob,
      type: 'playbook',
      playbook: pb.id,
      assets: [asset.host.id],
      runas: asset.account.username,
      runas_policy: 'skip',
      is_periodic: false,
    });
    await page.goto('/ui/workbench/ops/job/create?type=playbook');
    await page
      .locator('.ant-form-item', { has: page.locator('label', { hasText: /^Playbook$/ }) })
      .locator('.ant-select')
      .waitFor();
    await page.goto('/ui/workbench/ops/job/');
    const row = page.locator('tr.ant-table-row', { hasText: names.playbookJob });
    await row.waitFor();
    await row.locator('[data-action="run"]').click();
    await page.waitForURL(/\/workbench\/ops\/executions\/[\w-]+/);
    // The playbook the workspace test saved: `shell: echo from-editor`, run by Ansible on the asset.
    await expect.poll(() => terminalText(page), { timeout: 60_000 }).toContain('from-editor');
    await page.getByTestId('host-results').getByText(names.host).waitFor({ timeout: 60_000 });
    // The facts above the output follow the run to its end.
    await page.getByTestId('detail-card').getByText('Success', { exact: true }).waitFor();
    await shot(page, 'playbook-execution');
  }, 120_000);
});

describe('with the centre turned off', () => {
  it('says so on its pages and hides its menu', async () => {
    await apiCall(admin, 'PATCH', '/api/v1/settings/setting/?category=ops', { SECURITY_COMMAND_EXECUTION: false });
    try {
      await page.goto('/ui/workbench/ops/quick-job');
      await page.getByTestId('centre-disabled').waitFor();
      expect(await page.getByRole('menuitem', { name: 'Quick job' }).count()).toBe(0);
      await shot(page, 'centre-disabled');
    } finally {
      await apiCall(admin, 'PATCH', '/api/v1/settings/setting/?category=ops', { SECURITY_COMMAND_EXECUTION: true });
    }
  });
});
