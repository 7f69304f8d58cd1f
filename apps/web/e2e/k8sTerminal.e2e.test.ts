import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startFakeK8s, type FakeK8s } from '@gatehouse/server/test-support/k8sApi.ts';
import { E2E_ADMIN_PASSWORD } from './server.ts';
import { apiCall, launchBrowser, newContext, newUserContext, screenshot, signInAdmin } from './browser.ts';

/**
 * A Kubernetes asset in the web terminal (/luna/): the asset opens (the connect dialog makes its
 * k8s token) into namespaces, pods and containers read from a fake API server (no real cluster can
 * run here: test-support/k8sApi.ts answers the real REST paths and exec WebSocket, the exec a real
 * /bin/sh under a pty), a container opens a tab, and a command typed there runs and is recorded.
 */
let browser: Browser;
let admin: BrowserContext;
let user: BrowserContext;
let fake: FakeK8s;
let assetId: string;
const DEFAULT_ORG = '00000000-0000-0000-0000-000000000002';
const PASSWORD = 'Luna-k8s-pass1!';
const stamp = Date.now().toString(36);
const names = { user: `lk_${stamp}`, node: `e2e-k8s-${stamp}`, asset: `cluster-${stamp}` };
type Row = Record<string, unknown> & { id: string };

const api = <T>(method: string, url: string, data?: unknown): Promise<T> =>
  apiCall<T>(admin, method, url, data, { 'X-JMS-ORG': DEFAULT_ORG });

beforeAll(async () => {
  fake = await startFakeK8s({ shop: { 'cart-7d9f': ['cart', 'envoy'] }, monitoring: { 'prom-0': ['prometheus'] } });
  browser = await launchBrowser();
  admin = await newContext(browser, inject('baseURL'));
  await signInAdmin(await admin.newPage(), E2E_ADMIN_PASSWORD);
  const node = await api<Row>('POST', '/api/v1/assets/nodes/', { full_value: names.node });
  const asset = await api<Row>('POST', '/api/v1/assets/clouds/', {
    name: names.asset,
    address: fake.url,
    platform: 'Kubernetes',
    nodes: [node.id],
  });
  assetId = asset.id;
  await api('POST', '/api/v1/accounts/accounts/', {
    asset: asset.id,
    username: 'deployer',
    secret_type: 'token',
    secret: fake.token,
  });
  const made = await newUserContext(browser, inject('baseURL'), admin, DEFAULT_ORG, {
    username: names.user,
    name: `K8s ${stamp}`,
    password: PASSWORD,
  });
  user = made.context;
  await api('POST', '/api/v1/perms/asset-permissions/', {
    name: `k8s-${stamp}`,
    users: [made.id],
    assets: [asset.id],
    accounts: ['@ALL'],
    actions: ['connect'],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await fake?.stop();
});

const screen = (page: Page) =>
  page.locator('[role="tabpanel"][aria-hidden="false"] [data-testid="terminal-pane"] .xterm-rows').innerText();
const k8sNode = (page: Page, text: string) =>
  page.getByTestId('luna-tree').getByTestId('tree-k8s').filter({ hasText: text });

describe('a Kubernetes asset in the web terminal', () => {
  it('opens into namespaces, pods and containers, and a container’s shell runs a command', async () => {
    const page = await user.newPage();
    await page.goto('/luna/');
    await page.getByTestId('luna-tree').getByTestId('tree-node').filter({ hasText: names.node }).click();
    await page.getByTestId('luna-tree').getByTestId('tree-asset').filter({ hasText: names.asset }).click();
    // The connect dialog makes the k8s token (the only account is chosen already).
    const dialog = page.getByTestId('connect-dialog');
    await expect.poll(() => page.locator('.ant-modal').innerText()).toContain('Kubernetes');
    await page.getByTestId('connect-ok').click();
    await dialog.waitFor({ state: 'detached' }).catch(() => undefined);
    await k8sNode(page, 'monitoring').waitFor();
    await k8sNode(page, 'shop').click();
    await k8sNode(page, 'cart-7d9f').click();
    await k8sNode(page, 'envoy').waitFor();
    await screenshot(page, 'luna-k8s-tree');
    await k8sNode(page, 'cart').filter({ hasNotText: '7d9f' }).click();
    const pane = page.locator(
      '[role="tabpanel"][aria-hidden="false"] [data-testid="terminal-pane"][data-phase="connected"]',
    );
    await pane.waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('session-tab').innerText()).toContain('cart@cart-7d9f');
    await expect.poll(() => screen(page), { timeout: 20_000 }).toContain('gh$');
    await pane.getByTestId('terminal').click();
    await page.keyboard.type('echo k8s-$((40+2))', { delay: 20 });
    await page.keyboard.press('Enter');
    await expect.poll(() => screen(page), { timeout: 20_000 }).toContain('k8s-42');
    await screenshot(page, 'luna-k8s-shell');
    const session = (await pane.getAttribute('data-session'))!;
    await expect
      .poll(async () =>
        (await api<{ input: string }[]>('GET', `/api/v1/terminal/commands/?session_id=${session}`)).map((c) => c.input),
      )
      .toContain('echo k8s-$((40+2))');
    expect(fake.requests.some((r) => r.method === 'WS' && r.path.includes('/pods/cart-7d9f/exec?container=cart'))).toBe(
      true,
    );
  }, 120_000);

  it('opens from a ?login_to= link (My assets’ connect button) into the cluster at the top of the tree', async () => {
    const page = await user.newPage();
    await page.goto(`/luna/?login_to=${assetId}`);
    await expect.poll(() => page.locator('.ant-modal').innerText()).toContain('Kubernetes');
    await page.getByTestId('connect-ok').click();
    await k8sNode(page, 'monitoring').waitFor();
    await k8sNode(page, 'monitoring').click();
    await k8sNode(page, 'prom-0').click();
    await k8sNode(page, 'prometheus').click();
    await expect.poll(() => screen(page), { timeout: 20_000 }).toContain('gh$');
    expect(await page.getByTestId('session-tab').innerText()).toContain('prometheus@prom-0');
    await screenshot(page, 'luna-k8s-link');
  }, 120_000);
});
