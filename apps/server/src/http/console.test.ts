import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type TestApp } from '../../test-support/testApp.ts';

/**
 * Serving the built console: a fake build (index.html and one hashed asset written beside its
 * .br/.gz, as the console's build does) in a directory of its own.
 */
let t: TestApp;
let dist: string;
const SCRIPT = `console.log(${JSON.stringify('gatehouse '.repeat(400))});\n`;

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  fs.writeFileSync(path.join(dist, 'luna.html'), '<!doctype html><div id="luna"></div>');
  const js = path.join(dist, 'assets/index-abc123.js');
  fs.writeFileSync(js, SCRIPT);
  fs.writeFileSync(`${js}.br`, zlib.brotliCompressSync(SCRIPT));
  fs.writeFileSync(`${js}.gz`, zlib.gzipSync(SCRIPT));
  t = await createTestApp({ GATEHOUSE_WEB_DIST: dist });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) =>
  t.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

describe('the built console', () => {
  it('sends a hashed asset brotli-compressed to a browser that accepts it, cached for a year', async () => {
    const res = await get('/ui/assets/index-abc123.js', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toContain('immutable');
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
    expect(res.rawPayload.length).toBeLessThan(SCRIPT.length / 4);
  });

  it('sends gzip to a browser without brotli, and the plain file to one that accepts neither', async () => {
    const gz = await get('/ui/assets/index-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);
    const plain = await get('/ui/assets/index-abc123.js', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('answers any other /ui/ path with the app, never cached', async () => {
    const res = await get('/ui/console/users/users/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('id="root"');
  });

  it('answers a path whose percent-encoding is not valid with the app, not a 500', async () => {
    for (const url of ['/ui/%25', '/ui/%25zz', '/ui/assets/%25E0%25A4%25A']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('id="root"');
    }
  });
});

describe('the web terminal page (/luna/)', () => {
  it('sends a signed-out visitor to the login page, with the way back to the same URL', async () => {
    for (const url of ['/luna/', '/luna/?login_to=a1&login_account=b2', '/luna/x']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(302);
      expect(res.headers.location).toBe(`/core/auth/login/?next=${encodeURIComponent(url)}`);
    }
  });

  it('answers a signed-in user with the web terminal entry, never cached', async () => {
    const admin = await adminClient(t.app);
    for (const url of ['/luna/', '/luna/?token=abc', '/luna/anything/else']) {
      const res = await admin.get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('id="luna"');
    }
    const bare = await admin.get('/luna?login_to=a1');
    expect(bare.statusCode).toBe(302);
    expect(bare.headers.location).toBe('/luna/?login_to=a1');
  });
});
