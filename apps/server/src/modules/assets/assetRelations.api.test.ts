import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';

/** An asset's platform and gateways, and a gateway's connectivity test. */
let t: TestApp;
let admin: SessionClient;
const A = '/api/v1/assets';
type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
});
afterAll(async () => t.close());

async function finished(task: string): Promise<Row> {
  for (let i = 0; i < 200; i++) {
    const s = (await admin.get(`/api/v1/ops/celery/task/${task}/`)).json();
    if (s.state === 'SUCCESS' || s.state === 'FAILURE') return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('task did not finish');
}

describe('asset relations', () => {
  let domain: Row;
  let inDomain: Row;
  let alone: Row;
  let gateway: Row;

  beforeAll(async () => {
    domain = (await admin.post(`${A}/domains/`, { name: 'rel-dmz' })).json();
    inDomain = (
      await admin.post(`${A}/hosts/`, { name: 'rel-web', address: '10.9.0.1', platform: 'Linux', domain: domain.id })
    ).json();
    alone = (
      await admin.post(`${A}/databases/`, { name: 'rel-db', address: '10.9.0.2', platform: 'MySQL', db_name: 'app' })
    ).json();
    const gw = await admin.post(`${A}/gateways/`, {
      name: 'rel-gw',
      address: '127.0.0.1',
      platform: 'Gateway',
      domain: domain.id,
      protocols: [{ name: 'ssh', port: 1 }],
    });
    expect(gw.statusCode).toBe(201);
    gateway = gw.json();
  });

  it('GET <list>/<id>/platform/ gives the platform with its protocols', async () => {
    const p = (await admin.get(`${A}/hosts/${inDomain.id}/platform/`)).json();
    expect(p.name).toBe('Linux');
    expect(p.protocols.find((x: Row) => x.name === 'ssh')).toMatchObject({ port: 22, primary: true });
    expect((await admin.get(`${A}/assets/${alone.id}/platform/`)).json().name).toBe('MySQL');
    // The category endpoint only knows its own assets.
    expect((await admin.get(`${A}/hosts/${alone.id}/platform/`)).statusCode).toBe(404);
  });

  it("GET <list>/<id>/gateways/ pages the gateways of the asset's domain", async () => {
    const page = (await admin.get(`${A}/assets/${inDomain.id}/gateways/?limit=10&offset=0`)).json();
    expect(page.count).toBe(1);
    expect(page.results.map((g: Row) => g.name)).toEqual(['rel-gw']);
    const none = (await admin.get(`${A}/assets/${alone.id}/gateways/`)).json();
    expect(none).toMatchObject({ count: 0, results: [] });
  });

  it('POST gateways/<id>/test-connective/ tests the gateway as a task', async () => {
    const res = await admin.post(`${A}/gateways/${gateway.id}/test-connective/`, { port: 1 });
    expect(res.statusCode).toBe(200);
    const state = await finished(res.json().task);
    expect(state.results[0]).toMatchObject({ asset: gateway.id, connectivity: 'err' });
    expect((await admin.get(`${A}/gateways/${gateway.id}/`)).json().connectivity.value).toBe('err');
    // A host that is not a gateway is not found there.
    expect((await admin.post(`${A}/gateways/${inDomain.id}/test-connective/`, {})).statusCode).toBe(404);
  });
});

describe('asset export', () => {
  it('writes protocols as name/port pairs, which the import reads back', async () => {
    await admin.post(`${A}/hosts/`, {
      name: 'exp-host',
      address: '10.9.1.1',
      platform: 'Linux',
      protocols: [
        { name: 'ssh', port: 2222 },
        { name: 'sftp', port: 22 },
      ],
    });
    const csv = (await admin.get(`${A}/hosts/?format=csv&name=exp-host`)).body;
    expect(csv).toContain('"ssh/2222,sftp/22"');
    expect(csv).not.toContain('{"name"');
    // The JSON API is unchanged.
    const [row] = (await admin.get(`${A}/hosts/?name=exp-host`)).json();
    expect(row.protocols).toEqual([
      { name: 'ssh', port: 2222 },
      { name: 'sftp', port: 22 },
    ]);
    const parsed = await admin.request({
      method: 'POST',
      url: `${A}/hosts/render-to-json/`,
      payload: csv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(parsed.statusCode).toBe(200);
    const back = { ...parsed.json().data[0], name: 'exp-host-2' };
    const created = await admin.post(`${A}/hosts/`, back);
    expect(created.statusCode).toBe(201);
    expect(created.json().protocols).toEqual([
      { name: 'ssh', port: 2222 },
      { name: 'sftp', port: 22 },
    ]);
  });
});
