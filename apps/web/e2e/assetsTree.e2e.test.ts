import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, openAsAdmin, screenshot } from './browser.ts';

/**
 * Issue 7, the asset list with its node tree: nodes made through the right-click menu, a host
 * dragged between nodes with the counts following, search by part of the address, category tabs
 * and the platform picker.
 */
const LIST = '/ui/console/assets/assets/';
const RUN = Date.now().toString(36).slice(-5);
const OCTET = 10 + (Date.now() % 200);
const ADDRESS = `10.213.${OCTET}.77`;

let browser: Browser;
let ctx: BrowserContext;
let page: Page;

beforeAll(async () => {
  ({ browser, ctx, page } = await openAsAdmin(inject('baseURL'), E2E_ADMIN_PASSWORD));
});
afterAll(async () => browser.close());

const api = <T>(method: string, url: string, data?: unknown): Promise<T> => apiCall<T>(ctx, method, url, data);

const tree = () => page.getByTestId('node-tree');
const nodeTitle = (name: string) =>
  tree()
    .getByTestId('node-title')
    .filter({ hasText: new RegExp(`^${name} \\(\\d+\\)$`) });
const countOf = async (name: string) =>
  Number(/\((\d+)\)$/.exec((await nodeTitle(name).textContent()) ?? '')?.[1] ?? -1);
const rows = () => page.locator('[data-testid="resource-list"] tbody tr.ant-table-row');

/** Right-click a node, pick "New child node", name it, and wait for it to show. */
async function createChild(parent: string, name: string, shot?: string) {
  await nodeTitle(parent).click({ button: 'right' });
  await page.getByTestId('node-menu').waitFor();
  if (shot) await screenshot(page, shot);
  await page.getByTestId('node-menu').getByText('New child node').click();
  await page.getByTestId('node-name-input').fill(name);
  await page.locator('.ant-modal:visible').getByRole('button', { name: 'Confirm' }).click();
  // The parent opens to show its new child.
  await nodeTitle(name).waitFor();
}

describe('asset list and node tree', () => {
  it('builds a three-level tree by right-click, moves a host by drag and drop and keeps the counts exact', async () => {
    await page.goto(`${LIST}?activeTab=all`);
    await tree().waitFor();
    const root = (await tree().getByTestId('node-title').first().textContent())!.replace(/ \(\d+\)$/, '');
    const [l1, l2, l3, b] = [`e2e-${RUN}-l1`, `e2e-${RUN}-l2`, `e2e-${RUN}-l3`, `e2e-${RUN}-b`];
    await createChild(root, l1);
    await createChild(l1, l2, 'assets-tree-menu');
    await createChild(l2, l3);
    await createChild(root, b);

    const nodes = await api<{ id: string; value: string; full_value: string }[]>(
      'GET',
      `/api/v1/assets/nodes/?value=${l3}`,
    );
    expect(nodes[0]!.full_value).toBe(`/${root}/${l1}/${l2}/${l3}`);
    await api('POST', '/api/v1/assets/hosts/', {
      name: `e2e-${RUN}-host`,
      address: ADDRESS,
      platform: 'Linux',
      nodes: [nodes[0]!.id],
    });
    await page.getByRole('button', { name: 'Refresh' }).first().click();
    await expect.poll(() => countOf(l3)).toBe(1);
    expect([await countOf(l1), await countOf(l2), await countOf(b)]).toEqual([1, 1, 0]);

    // Selecting a node filters the table.
    const listed = page.waitForRequest(
      (r) => r.url().includes('/api/v1/assets/assets/?') && r.url().includes(`node=${nodes[0]!.id}`),
    );
    await nodeTitle(l3).click();
    await listed;
    await expect.poll(() => rows().count()).toBe(1);
    await expect.poll(() => rows().first().textContent()).toContain(ADDRESS);
    await screenshot(page, 'assets-list-tree');

    // Drag the host row onto the other node: it moves there.
    await rows().first().dragTo(nodeTitle(b));
    await expect.poll(() => countOf(b)).toBe(1);
    expect([await countOf(l3), await countOf(l1)]).toEqual([0, 0]);
    await expect.poll(() => rows().count()).toBe(0);
    await nodeTitle(b).click();
    await expect.poll(() => rows().count()).toBe(1);
  });

  it('finds a host by part of its address', async () => {
    await page.goto(LIST);
    await page.getByTestId('search-input').fill(`213.${OCTET}.7`);
    await page.getByTestId('search-input').press('Enter');
    await expect.poll(() => rows().count()).toBe(1);
    expect(await rows().first().textContent()).toContain(`e2e-${RUN}-host`);
  });

  it('switches the list API with the category tabs and opens the create page of the picked platform', async () => {
    await page.goto(LIST);
    await tree().waitFor();
    const hosts = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/v1/assets/hosts/');
    await page.getByRole('tab', { name: 'Host' }).click();
    await hosts;
    const dbs = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/v1/assets/databases/');
    await page.getByRole('tab', { name: 'Database' }).click();
    await dbs;

    await page.getByRole('tab', { name: 'All' }).click();
    await nodeTitle(`e2e-${RUN}-b`).click();
    const nodeId = (await api<{ id: string }[]>('GET', `/api/v1/assets/nodes/?value=e2e-${RUN}-b`))[0]!.id;
    await page.getByTestId('list-create').click();
    await page.getByTestId('platform-group-database').waitFor();
    await screenshot(page, 'assets-platform-picker');
    const mysql = (await api<{ id: number }[]>('GET', '/api/v1/assets/platforms/?name=MySQL'))[0]!;
    await page.getByTestId('platform-group-database').getByRole('button', { name: 'MySQL', exact: true }).click();
    await page.waitForURL(
      (u) =>
        u.pathname === '/ui/console/assets/databases/create' &&
        u.searchParams.get('platform') === String(mysql.id) &&
        u.searchParams.get('node') === nodeId,
    );
    // The pick is remembered as a recent platform.
    await page.goto(LIST);
    await page.getByTestId('list-create').click();
    await expect.poll(() => page.getByTestId('recent-platforms').textContent()).toContain('MySQL');
  });
});
