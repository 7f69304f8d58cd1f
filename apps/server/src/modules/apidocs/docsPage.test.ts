import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../test-support/testApp.ts';

/**
 * The browsable page run in a DOM: it loads openapi.json the way a browser would and lists every
 * operation; text from the document stays text.
 */
let t: TestApp;

/** The little of the DOM this test touches (the server's TypeScript has no DOM library). */
interface PageNode {
  textContent: string | null;
  hidden: boolean;
  open: boolean;
  value: string;
  querySelector(selector: string): PageNode | null;
  getAttribute(name: string): string | null;
  dispatchEvent(event: unknown): boolean;
}
interface PageWindow {
  document: {
    querySelector(selector: string): PageNode | null;
    querySelectorAll(selector: string): Iterable<PageNode> & { length: number };
    getElementById(id: string): PageNode | null;
  };
  fetch: unknown;
  eval(code: string): unknown;
  Event: new (type: string) => unknown;
}
const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
  JSDOM: new (html: string, opts: object) => { window: PageWindow };
};

beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => t.close());

async function openPage(client: SessionClient, tamper?: (doc: Record<string, unknown>) => void) {
  const html = (await client.get('/api/docs/')).body;
  const js = (await client.get('/api/docs/docs.js')).body;
  const dom = new JSDOM(html, { url: 'http://gatehouse.test/api/docs/', runScripts: 'outside-only' });
  const fetched: string[] = [];
  // The page's own fetch goes through the test client, with its cookies.
  dom.window.fetch = async (url: string) => {
    fetched.push(url);
    const res = await client.get(`/api/docs/${url}`);
    const body = res.statusCode === 200 ? (res.json() as Record<string, unknown>) : undefined;
    if (body && tamper) tamper(body);
    return { ok: res.statusCode < 300, status: res.statusCode, json: async () => body };
  };
  dom.window.eval(js);
  await new Promise((r) => setTimeout(r, 50));
  for (let i = 0; i < 50 && dom.window.document.querySelector('#content .note'); i++)
    await new Promise((r) => setTimeout(r, 20));
  return { doc: dom.window.document, win: dom.window, fetched };
}

describe('API docs page', () => {
  it('lists every operation of the document for a signed-in user, and filters them', async () => {
    const admin = await adminClient(t.app);
    const json = (await admin.get('/api/docs/openapi.json')).json() as { paths: Record<string, object> };
    const operations = Object.values(json.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    const { doc, win, fetched } = await openPage(admin);
    expect(fetched).toEqual(['openapi.json']);
    const ops = doc.querySelectorAll('details.op[data-search]');
    expect(ops.length).toBe(operations);
    expect(doc.getElementById('title')!.textContent).toMatch(/^Gatehouse API v/);
    const filter = doc.getElementById('filter')!;
    filter.value = 'users.delete_user';
    filter.dispatchEvent(new win.Event('input'));
    const shown = [...ops].filter((o) => !o.hidden);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(10);
    expect(shown.map((o) => o.querySelector('.path')!.textContent)).toContain('/api/v1/users/users/{id}/');
    // An operation's details are built when it is opened.
    const first = shown[0]!;
    expect(first.querySelector('table')).toBeNull();
    first.open = true;
    first.dispatchEvent(new win.Event('toggle'));
    expect(first.textContent).toContain('users.delete_user');
  });

  it('keeps markup in the document as text', async () => {
    const admin = await adminClient(t.app);
    const { doc } = await openPage(admin, (d) => {
      (d.info as Record<string, string>).description = '<img src=x id=injected>';
    });
    expect(doc.getElementById('injected')).toBeNull();
    expect(doc.getElementById('description')!.textContent).toBe('<img src=x id=injected>');
  });

  it('asks an anonymous visitor to sign in', async () => {
    const { doc } = await openPage(new SessionClient(t.app));
    const link = doc.querySelector('#content a')!;
    expect(link.getAttribute('href')).toBe('/core/auth/login/?next=%2Fapi%2Fdocs%2F');
  });
});
