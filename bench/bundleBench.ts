import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { E2E_ADMIN_PASSWORD, startServer } from '../apps/web/e2e/server.ts';
import { buildConsole, removeBuild } from './pageBench.ts';

/**
 * How much JavaScript a first load of a page fetches, in gzip bytes (the server sends the gzip files
 * the build wrote). Two measures of the same thing:
 * - from the build's manifest (`dist/.vite/manifest.json`): the HTML entry's chunk and its static
 *   imports, plus the lazy modules the page's route loads (listed below) and their static imports;
 * - in Chromium: the scripts a first load with an empty cache actually fetches.
 * The Chromium number is the one held against the budget when Chromium is there. Over budget, the
 * bench run exits non-zero (the tests do not run this).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const KB = 1024;

interface PageBudget {
  name: string;
  /** The HTML entry in the manifest. */
  entry: string;
  /** Source modules the route loads lazily (manifest keys); a missing key fails the bench. */
  lazy: string[];
  url: string;
  signedIn: boolean;
  /** What shows when the page has loaded. */
  ready: string;
  budgetKB: number;
  /**
   * Modules the page imports only after its shell has drawn (the charts, `lib/charts/canvasChart.ts`):
   * the scripts only they need are reported beside the first load, not held against its budget.
   */
  deferred?: string[];
  /**
   * The whole page, deferred modules included, once `ready` shows (the charts drawn): every
   * script Chromium fetched, held against `budgetKB` too (issue 37 part 4).
   */
  allIn?: { ready: string; budgetKB: number };
}

export const PAGES: PageBudget[] = [
  {
    name: 'login page',
    entry: 'login.html',
    lazy: [],
    url: '/core/auth/login/',
    signedIn: false,
    ready: 'button[type="submit"]',
    budgetKB: 60,
  },
  {
    name: '/ui/console/dashboard',
    entry: 'index.html',
    lazy: ['src/features/console/dashboard/DashboardPage.tsx'],
    url: '/ui/console/dashboard',
    signedIn: true,
    ready: '[data-testid="dashboard-welcome"]',
    budgetKB: 250,
    deferred: ['src/lib/charts/canvasChart.ts'],
    allIn: { ready: '[data-testid="chart-activity"][data-drawn="true"]', budgetKB: 300 },
  },
];

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
}
type Manifest = Record<string, ManifestChunk>;

function gzipSize(dist: string, file: string): number {
  const gz = path.join(dist, `${file}.gz`);
  if (fs.existsSync(gz)) return fs.statSync(gz).size;
  return zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
}

/** The JavaScript files a first load of `page` needs according to the manifest. */
export function manifestFiles(manifest: Manifest, page: Pick<PageBudget, 'entry' | 'lazy'>): Set<string> {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest (renamed? update bench/bundleBench.ts)`);
    if (files.has(chunk.file)) return;
    if (chunk.file.endsWith('.js')) files.add(chunk.file);
    for (const i of chunk.imports ?? []) visit(i);
  };
  visit(page.entry);
  for (const key of page.lazy) visit(key);
  return files;
}

/** The scripts only the page's deferred modules need (what they import that the first load does not). */
export function deferredFiles(manifest: Manifest, page: Pick<PageBudget, 'deferred'>, first: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const key of page.deferred ?? [])
    for (const f of manifestFiles(manifest, { entry: key, lazy: [] })) if (!first.has(f)) out.add(f);
  return out;
}

function total(dist: string, files: Iterable<string>): number {
  let sum = 0;
  for (const f of files) sum += gzipSize(dist, f);
  return sum;
}

/** The scripts Chromium fetches on a first load of each page (empty cache), by file name under dist. */
async function measureInChromium(dist: string): Promise<Map<string, Set<string>>> {
  const server = await startServer({ GATEHOUSE_WEB_DIST: dist });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const out = new Map<string, Set<string>>();
  try {
    const signedIn = await browser.newContext({ baseURL: server.url, viewport: { width: 1400, height: 900 } });
    const signer = await signedIn.newPage();
    await signer.goto('/core/auth/login/');
    await signer.getByLabel('Username').fill('admin');
    await signer.getByLabel('Password', { exact: true }).fill(E2E_ADMIN_PASSWORD);
    await signer.getByRole('button', { name: 'Sign in', exact: true }).click();
    await signer.waitForURL('**/ui/**');
    const cookies = await signedIn.cookies();
    for (const p of PAGES) {
      // A fresh context per page: an empty cache, the session cookies copied when the page needs them.
      const ctx = await browser.newContext({ baseURL: server.url, viewport: { width: 1400, height: 900 } });
      if (p.signedIn) await ctx.addCookies(cookies);
      const page = await ctx.newPage();
      const scripts = new Set<string>();
      page.on('request', (r) => {
        if (r.resourceType() !== 'script') return;
        const { pathname } = new URL(r.url());
        if (pathname.startsWith('/ui/')) scripts.add(pathname.slice('/ui/'.length));
      });
      await page.goto(p.url);
      await page.locator(p.ready).first().waitFor({ timeout: 60_000 });
      if (p.allIn) await page.locator(p.allIn.ready).first().waitFor({ timeout: 60_000 });
      await page.waitForLoadState('networkidle');
      out.set(p.name, scripts);
      await ctx.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  return out;
}

/** Prints each page's first-load JavaScript next to its budget; returns false when one is over. */
export async function runBundleBench(): Promise<boolean> {
  const dist = buildConsole();
  if (!dist) throw new Error('vite build failed');
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
    const measured = fs.existsSync(CHROMIUM) ? await measureInChromium(dist) : undefined;
    if (!measured) console.log(`first-load JavaScript in Chromium: skipped (${CHROMIUM} not found)`);
    let ok = true;
    for (const p of PAGES) {
      const first = manifestFiles(manifest, p);
      const deferred = deferredFiles(manifest, p, first);
      const fromManifest = total(dist, first);
      const inBrowser = measured?.get(p.name);
      const fetched = inBrowser ? [...inBrowser].filter((f) => !deferred.has(f)) : undefined;
      const held = fetched ? total(dist, fetched) : fromManifest;
      const over = held > p.budgetKB * KB;
      if (over) ok = false;
      // All-in: what Chromium fetched (or, without it, the first load and the deferred modules).
      const allIn = inBrowser ? total(dist, inBrowser) : fromManifest + total(dist, deferred);
      const allInOver = p.allIn !== undefined && allIn > p.allIn.budgetKB * KB;
      if (allInOver) ok = false;
      const browserPart = fetched ? ` | Chromium fetched ${fetched.length} scripts ${kb(held)}` : '';
      const deferredPart = deferred.size ? ` | then after the shell: ${kb(total(dist, deferred))} (charts)` : '';
      const allInPart = p.allIn
        ? ` | all-in (charts drawn) ${kb(allIn)} / budget ${p.allIn.budgetKB} KB ${allInOver ? 'OVER BUDGET' : 'ok'}`
        : '';
      console.log(
        `first-load JS (gzip) ${p.name}: ${kb(held)} / budget ${p.budgetKB} KB ${over ? 'OVER BUDGET' : 'ok'}` +
          ` | manifest ${kb(fromManifest)}${browserPart}${deferredPart}${allInPart}`,
      );
    }
    return ok;
  } finally {
    removeBuild(dist);
  }
}

function kb(bytes: number): string {
  return `${(bytes / KB).toFixed(1)} KB`;
}
