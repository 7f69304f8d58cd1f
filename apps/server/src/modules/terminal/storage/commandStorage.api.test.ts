import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { adminIdentity, hostWithAccounts, openShell, type GatewayUser } from '../../../../test-support/gateway.ts';
import { startShellSshd, type SshdWithUsers } from '../../../../test-support/sshd.ts';
import { DEFAULT_COMMAND_STORAGE_ID } from '../../../platform/db/migrations/m1252_command_storages.ts';

/**
 * Command storages. Elasticsearch cannot run here: a stand-in of its documented API answers in
 * this test (`GET /` cluster info, `POST /_bulk` NDJSON with `{"index": {...}}` action lines, HTTP
 * basic authentication), and records what it receives. A session's commands reach it when the
 * session ends, while the database keeps them for the console.
 */
const URL = '/api/v1/terminal/command-storages/';
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
let target: { host: any; password: any };
let user: GatewayUser;
let es: http.Server;
let esUrl: string;
const received: { index: string; id: string; doc: Record<string, unknown> }[] = [];
const AUTH = `Basic ${Buffer.from('elastic:Es-secret-1').toString('base64')}`;

function startEsStandIn(): Promise<void> {
  es = http.createServer((req, res) => {
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== AUTH) return answer(401, { error: { type: 'security_exception' }, status: 401 });
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString('utf8')));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/')
        return answer(200, { name: 'stand-in', cluster_name: 'test', version: { number: '8.11.0' } });
      if (req.method === 'POST' && req.url === '/_bulk') {
        expect(req.headers['content-type']).toBe('application/x-ndjson');
        const lines = body.split('\n').filter(Boolean);
        const items = [];
        for (let i = 0; i < lines.length; i += 2) {
          const action = JSON.parse(lines[i]!).index as { _index: string; _id: string };
          received.push({ index: action._index, id: action._id, doc: JSON.parse(lines[i + 1]!) });
          items.push({ index: { _index: action._index, _id: action._id, status: 201, result: 'created' } });
        }
        return answer(200, { took: 1, errors: false, items });
      }
      answer(404, { error: 'no handler' });
    });
  });
  return new Promise((r) =>
    es.listen(0, '127.0.0.1', () => {
      esUrl = `http://127.0.0.1:${(es.address() as AddressInfo).port}`;
      r();
    }),
  );
}

beforeAll(async () => {
  [sshd, t] = await Promise.all([startShellSshd(), createTestApp(), startEsStandIn()]).then(
    ([a, b]) => [a, b] as const,
  );
  admin = await adminClient(t.app);
  target = await hostWithAccounts(admin, sshd);
  user = await adminIdentity(t.app);
}, 60_000);
afterAll(async () => {
  sshd?.stop();
  es?.close();
  await t?.close();
});

const esBody = (meta: Record<string, string> = {}) => ({
  name: `es-${Math.random().toString(36).slice(2, 8)}`,
  type: 'es',
  meta: {
    HOSTS: esUrl,
    INDEX: 'gatehouse',
    INDEX_BY_DATE: 'true',
    USERNAME: 'elastic',
    PASSWORD: 'Es-secret-1',
    ...meta,
  },
});

describe('command storages', () => {
  it('lists the database as the default and checks an Elasticsearch storage’s settings', async () => {
    expect((await admin.get(URL)).json()).toEqual([
      expect.objectContaining({
        id: DEFAULT_COMMAND_STORAGE_ID,
        type: { value: 'server', label: 'Database' },
        is_default: true,
      }),
    ]);
    const noHosts = await admin.post(URL, esBody({ HOSTS: '' }));
    expect(noHosts.json().meta.HOSTS).toEqual(['This field is required.']);
    const inUrl = await admin.post(URL, esBody({ HOSTS: 'http://elastic:pw@127.0.0.1:9200' }));
    expect(inUrl.json().meta.HOSTS[0]).toMatch(/http/);
    const badChoice = await admin.post(URL, esBody({ INDEX_BY_DATE: 'maybe' }));
    expect(badChoice.statusCode).toBe(400);

    const wrong = (await admin.post(URL, esBody({ PASSWORD: 'wrong' }))).json();
    expect(wrong.meta).not.toHaveProperty('PASSWORD');
    const failed = (await admin.get(`${URL}${wrong.id}/test-connective/`)).json();
    expect(failed).toMatchObject({ is_valid: false, msg: expect.stringMatching(/401/) });
    expect((await admin.patch(`${URL}${wrong.id}/`, { meta: { ...esBody().meta } })).statusCode).toBe(200);
    expect((await admin.get(`${URL}${wrong.id}/test-connective/`)).json().is_valid).toBe(true);
    const stored = await t.deps.database.db
      .selectFrom('terminal_commandstorage')
      .select('meta')
      .where('id', '=', wrong.id)
      .executeTakeFirstOrThrow();
    expect(stored.meta).not.toContain('Es-secret-1');
  });

  it('sends a finished session’s commands to the default Elasticsearch storage, indexed by date', async () => {
    const id = (await admin.post(URL, esBody({ is_default: true } as never))).json().id;
    expect((await admin.patch(`${URL}${id}/`, { is_default: true })).statusCode).toBe(200);
    const { s, term } = await openShell(t.app, { user, assetId: target.host.id, accountId: target.password.id });
    await term.run('echo to-elastic');
    await term.type('exit\r');
    await term.waitEnd();
    await expect.poll(() => received.filter((r) => r.doc.session === s.id).length).toBe(2);
    const today = new Date().toISOString().slice(0, 10).replace(/-/g, '.');
    const echo = received.find((r) => r.doc.input === 'echo to-elastic')!;
    expect(echo.index).toBe(`gatehouse-${today}`);
    expect(echo.doc).toMatchObject({
      output: 'to-elastic',
      risk_level: 0,
      user: 'Administrator(admin)',
      asset: `${target.host.name}(127.0.0.1)`,
    });
    // The database keeps them for the console's lists.
    const listed = (await admin.get(`/api/v1/terminal/commands/?session_id=${s.id}`)).json();
    expect(listed.map((c: { input: string }) => c.input)).toContain('echo to-elastic');
    expect((await admin.patch(`${URL}${DEFAULT_COMMAND_STORAGE_ID}/`, { is_default: true })).statusCode).toBe(200);
  }, 60_000);
});
