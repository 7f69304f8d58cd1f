import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';
import { E2E_ADMIN_PASSWORD, startServer } from '../apps/web/e2e/server.ts';
import { signIn } from './client.ts';
import { buildConsole, removeBuild } from './pageBench.ts';
import { ms, percentile, ratio } from './stats.ts';

/**
 * Issue 37 part 3: the time a console page takes in Chromium to show its first rows, on a warm
 * cache, next to the floor a browser sets: a bare page served by the same server (a file the bench
 * writes into its own build folder, never part of the product) that makes the same API calls at once
 * and writes the rows as plain HTML. Both are timed inside the page, from the navigation's start to
 * the moment the rows (and the tree) are in the document (a MutationObserver installed before any
 * script runs). Pages and floors load in turns, so a busy machine weighs on both alike.
 * Goal: each page within GOAL times its floor (p50); missed, the run exits non-zero.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUNS = Number(process.env.BENCH_PAGE_RUNS ?? 15);
const USERS = Number(process.env.BENCH_PAGE_USERS ?? 200);
const ASSETS = Number(process.env.BENCH_PAGE_ASSETS ?? 200);
const GOAL = 3;
const ROWS = '[data-testid="resource-list"] tbody tr.ant-table-row';
const TREE = '[data-testid="node-title"]';

interface PageCase {
  name: string;
  url: string;
  /** What must be in the document for the page to count as shown. */
  ready: string[];
  /** The API path (without query) whose `results` are the rows; the tree's, when there is one. */
  rowsFrom: string;
  treeFrom?: string;
}

const CASES: PageCase[] = [
  {
    name: 'asset page (first rows + tree)',
    url: '/ui/console/assets/assets/?activeTab=all',
    ready: [ROWS, TREE],
    rowsFrom: '/api/v1/assets/assets/',
    treeFrom: '/api/v1/assets/nodes/children/tree/',
  },
  {
    name: 'users list (first rows)',
    url: '/ui/console/users/users/',
    ready: [ROWS],
    rowsFrom: '/api/v1/users/users/',
  },
];

/** Installed before any script of every page: records when all `ready` selectors match (ms since navigation). */
function watchScript(): string {
  return `(() => {
    const wanted = ${JSON.stringify(Object.fromEntries(CASES.map((c) => [c.name, c.ready])))};
    const check = () => {
      const sel = wanted[document.documentElement.dataset.benchCase || sessionStorage.getItem('bench-case') || ''];
      if (!sel || window.__benchShown) return;
      if (sel.every((s) => document.querySelector(s))) window.__benchShown = performance.now();
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true });
  })();`;
}

/** The floor: one script that fires every API call at once and writes rows and tree nodes as they come. */
function floorScript(calls: ApiCall[], c: PageCase): string {
  return `(() => {
  const calls = ${JSON.stringify(calls)};
  const rowsFrom = ${JSON.stringify(c.rowsFrom)};
  const treeFrom = ${JSON.stringify(c.treeFrom ?? null)};
  const esc = (v) => String(v ?? '').replace(/[&<>"]/g, (ch) => '&#' + ch.charCodeAt(0) + ';');
  const root = document.getElementById('root');
  for (const call of calls) {
    fetch(call.url, { method: call.method, headers: call.headers, credentials: 'same-origin' })
      .then((r) => r.json())
      .then((body) => {
        const p = call.url.split('?')[0];
        if (p === rowsFrom) {
          const rows = Array.isArray(body) ? body : body.results || [];
          const keys = rows[0] ? Object.keys(rows[0]).filter((k) => typeof rows[0][k] !== 'object').slice(0, 6) : [];
          const html = rows.map((r) => '<tr class="ant-table-row">' + keys.map((k) => '<td>' + esc(r[k]) + '</td>').join('') + '</tr>').join('');
          root.insertAdjacentHTML('beforeend', '<table data-testid="resource-list"><tbody>' + html + '</tbody></table>');
        } else if (p === treeFrom) {
          const nodes = Array.isArray(body) ? body : [];
          root.insertAdjacentHTML('afterbegin', '<ul>' + nodes.map((n) => '<li><span data-testid="node-title">' + esc(n.name || n.title) + '</span></li>').join('') + '</ul>');
        }
      });
  }
})();`;
}

interface ApiCall {
  method: string;
  url: string;
  headers: Record<string, string>;
}

function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}

export async function seedForPages(base: string): Promise<void> {
  const headers = await signIn(base, E2E_ADMIN_PASSWORD);
  const call = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${base}${url}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<unknown>;
  };
  const root = ((await call('GET', '/api/v1/assets/nodes/children/')) as { id: string }[])[0]!;
  const nodes: string[] = [];
  for (let i = 0; i < 20; i++)
    nodes.push(
      ((await call('POST', `/api/v1/assets/nodes/${root.id}/children/`, { value: `node ${i}` })) as { id: string }).id,
    );
  const batch = async (n: number, one: (i: number) => Promise<unknown>) => {
    for (let i = 0; i < n; i += 10)
      await Promise.all(Array.from({ length: Math.min(10, n - i) }, (_, k) => one(i + k)));
  };
  await batch(ASSETS, (i) =>
    call('POST', '/api/v1/assets/hosts/', {
      name: `host-${String(i).padStart(5, '0')}`,
      address: `10.0.${Math.floor(i / 250)}.${(i % 250) + 1}`,
      platform: 'Linux',
      nodes: [nodes[i % nodes.length]],
    }),
  );
  await batch(USERS, (i) =>
    call('POST', '/api/v1/users/users/', {
      name: `User ${i}`,
      username: `user_${String(i).padStart(5, '0')}`,
      email: `user_${i}@bench.test`,
    }),
  );
}

/** Loads `url` and returns the in-page time until the case's selectors matched. */
async function timeLoad(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  const handle = await page.waitForFunction(() => (window as { __benchShown?: number }).__benchShown, undefined, {
    timeout: 60_000,
    polling: 50,
  });
  return (await handle.jsonValue()) as number;
}

/** The console page's API calls on a load (after a first one that filled the cache). */
async function recordCalls(page: Page, url: string): Promise<ApiCall[]> {
  const calls: ApiCall[] = [];
  const record = async (r: Request) => {
    const u = new URL(r.url());
    if (!u.pathname.startsWith('/api/')) return;
    const h = await r.allHeaders();
    const headers = Object.fromEntries(
      Object.entries(h).filter(([k]) => k.startsWith('x-') || k === 'accept' || k === 'accept-language'),
    );
    calls.push({ method: r.method(), url: `${u.pathname}${u.search}`, headers });
  };
  const pending: Promise<void>[] = [];
  const on = (r: Request) => pending.push(record(r));
  page.on('request', on);
  await timeLoad(page, url);
  await page.waitForLoadState('networkidle');
  page.off('request', on);
  await Promise.all(pending);
  return calls;
}

async function runCase(
  ctx: BrowserContext,
  dist: string,
  c: PageCase,
  index: number,
): Promise<{ shown: number[]; floor: number[]; calls: number }> {
  const page = await ctx.newPage();
  await page.evaluate((name) => sessionStorage.setItem('bench-case', name), c.name).catch(() => undefined);
  await page.goto(c.url);
  await page.evaluate((name) => sessionStorage.setItem('bench-case', name), c.name);
  await timeLoad(page, c.url); // fills the cache
  const calls = await recordCalls(page, c.url);
  // The floor page: a document and a script in the bench's own build folder, served like the console's files.
  const script = `assets/bench-floor-${index}.js`;
  fs.writeFileSync(path.join(dist, script), floorScript(calls, c));
  fs.writeFileSync(
    path.join(dist, `bench-floor-${index}.htm`),
    `<!doctype html><html><head><meta charset="utf-8"><script type="module" src="/ui/${script}"></script></head><body><div id="root"></div></body></html>`,
  );
  const floorUrl = `/ui/bench-floor-${index}.htm`;
  await timeLoad(page, floorUrl); // fills the cache
  const shown: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    shown.push(await timeLoad(page, c.url));
    floor.push(await timeLoad(page, floorUrl));
  }
  await fs.promises.mkdir(path.resolve(import.meta.dirname, '../.tmp/screenshots'), { recursive: true });
  await page.goto(c.url);
  await page.locator(c.ready[0]!).first().waitFor();
  await page.screenshot({ path: path.resolve(import.meta.dirname, `../.tmp/screenshots/bench-page-${index}.png`) });
  await page.close();
  return { shown, floor, calls: calls.length };
}

/** Prints each page's time to first rows next to its floor; returns false when one misses the goal. */
export async function runPagesBench(): Promise<boolean> {
  if (!fs.existsSync(CHROMIUM)) {
    console.log(`\n## console pages in Chromium: skipped (${CHROMIUM} not found)`);
    return true;
  }
  const dist = buildConsole();
  if (!dist) throw new Error('vite build failed');
  const server = await startServer({ GATEHOUSE_WEB_DIST: dist, LOG_LEVEL: 'error' });
  const browser = await launch();
  let ok = true;
  try {
    await seedForPages(server.url);
    console.log(
      `\n## console pages in Chromium, warm cache: ${ASSETS} assets in 20 nodes, ${USERS} users, ${RUNS} runs`,
    );
    const ctx = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 1400, height: 900 },
      locale: 'en-US',
    });
    await ctx.addInitScript(watchScript());
    const page = await ctx.newPage();
    await page.goto('/core/auth/login/');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/ui/**');
    await page
      .getByRole('button', { name: 'Got it' })
      .click({ timeout: 3000 })
      .catch(() => undefined);
    await page.close();
    for (const [i, c] of CASES.entries()) {
      const { shown, floor, calls } = await runCase(ctx, dist, c, i);
      const r = percentile(shown, 50) / percentile(floor, 50);
      const met = r <= GOAL;
      if (!met) ok = false;
      console.log(
        `${c.name}: p50 ${ms(percentile(shown, 50))} p90 ${ms(percentile(shown, 90))} | floor (bare page, same ${calls} API calls) p50 ${ms(percentile(floor, 50))} p90 ${ms(percentile(floor, 90))} | ratio p50 ${ratio(percentile(shown, 50), percentile(floor, 50))} (goal <= ${GOAL}x) ${met ? 'ok' : 'MISSED'}`,
      );
    }
  } finally {
    await browser.close();
    await server.stop();
    removeBuild(dist);
  }
  return ok;
}
