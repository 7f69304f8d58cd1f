import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Request } from 'playwright-core';
import { ms, percentile, ratio, timeIt } from './stats.ts';

/**
 * The asset list page in Chromium (playwright-core, /usr/bin/chromium, the flags of
 * apps/web/e2e/browser.ts): time from navigation until the first table row and the first tree node
 * show, next to the raw API time of the same requests (those the page made on its first load: list
 * metadata, list page, tree, categories, profile…) fetched one after the other in the same run.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROOT = path.resolve(import.meta.dirname, '..');

/** Builds the console (production mode) into a directory of its own; returns it, or undefined on failure. */
export function buildConsole(): string | undefined {
  if (process.env.GATEHOUSE_WEB_DIST) return process.env.GATEHOUSE_WEB_DIST;
  const outDir = path.join(ROOT, `.tmp/bench-dist-${process.pid}`);
  const r = spawnSync(path.join(ROOT, 'node_modules/.bin/vite'), ['build', '--logLevel', 'error', '--outDir', outDir], {
    cwd: path.join(ROOT, 'apps/web'),
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return r.status === 0 ? outDir : undefined;
}

export function removeBuild(dir: string | undefined): void {
  if (dir && !process.env.GATEHOUSE_WEB_DIST) fs.rmSync(dir, { recursive: true, force: true });
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

export async function runAssetPageBench(
  base: string,
  headers: Record<string, string>,
  password: string,
  runs: number,
): Promise<void> {
  if (!fs.existsSync(CHROMIUM)) {
    console.log(`asset page in Chromium: skipped (${CHROMIUM} not found)`);
    return;
  }
  const browser = await launch();
  try {
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'en-US' });
    const page = await ctx.newPage();
    await page.goto(`${base}/core/auth/login/`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/ui/**');
    // The API requests the page makes are recorded on the first load and make the baseline.
    const api: [string, string][] = [];
    const record = (r: Request) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith('/api/')) api.push([r.method(), `${u.pathname}${u.search}`]);
    };
    page.on('request', record);
    const load = async () => {
      await page.goto(`${base}/ui/console/assets/assets/?activeTab=all`);
      await Promise.all([
        page.locator('[data-testid="resource-list"] tbody tr.ant-table-row').first().waitFor({ timeout: 60_000 }),
        page.locator('[data-testid="node-title"]').first().waitFor({ timeout: 60_000 }),
      ]);
    };
    // The first load fills the browser cache with the console's files; later loads are what users see every day.
    await load().catch(async (e: unknown) => {
      fs.mkdirSync(path.join(ROOT, '.tmp/screenshots'), { recursive: true });
      await page.screenshot({ path: path.join(ROOT, '.tmp/screenshots/bench-asset-page-failed.png') });
      console.log(`asset page did not show (${page.url()}); see .tmp/screenshots/bench-asset-page-failed.png`);
      throw e;
    });
    page.off('request', record);
    await page
      .getByRole('button', { name: 'Got it' })
      .click({ timeout: 2000 })
      .catch(() => undefined);
    const { 'content-type': _json, ...readHeaders } = headers;
    const fetchAll = async () => {
      for (const [method, u] of api) {
        const res = await fetch(`${base}${u}`, { method, headers: readHeaders });
        if (!res.ok) throw new Error(`${method} ${u}: ${res.status}`);
        await res.arrayBuffer();
      }
    };
    await timeIt(3, fetchAll);
    const raw = await timeIt(runs, fetchAll);
    const shown = await timeIt(Math.min(runs, 10), load);
    console.log(
      `asset page in Chromium (first rows + tree): p50 ${ms(percentile(shown, 50))} p99 ${ms(percentile(shown, 99))} | raw API of its ${api.length} requests p50 ${ms(percentile(raw, 50))} | ratio p50 ${ratio(percentile(shown, 50), percentile(raw, 50))}`,
    );
  } finally {
    await browser.close();
  }
}
