import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';

/** Platforms and assets of every category (issue 7), on a real database. */
let t: TestApp;
let admin: SessionClient;
const A = '/api/v1/assets';
type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers

const req = (method: string, url: string, payload?: unknown) =>
  admin.request({ method, url, ...(payload !== undefined ? { payload: payload as object } : {}) });

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
});
afterAll(async () => t.close());

describe('platforms', () => {
  it('lists the builtin platforms of every category, by id or name, with their protocols', async () => {
    const all: Row[] = (await admin.get(`${A}/platforms/`)).json();
    const names = all.map((p) => p.name);
    for (const n of [
      'Linux',
      'Unix',
      'Windows',
      'macOS',
      'BSD',
      'AIX',
      'Gateway',
      'MySQL',
      'MariaDB',
      'PostgreSQL',
      'Oracle',
      'SQLServer',
      'ClickHouse',
      'MongoDB',
      'Redis',
      'General',
      'Kubernetes',
      'Website',
      'ChatGPT',
    ])
      expect(names).toContain(n);
    const linux: Row = (await admin.get(`${A}/platforms/Linux/`)).json();
    expect(typeof linux.id).toBe('number');
    expect((await admin.get(`${A}/platforms/${linux.id}/`)).json().name).toBe('Linux');
    expect(linux.category).toEqual({ value: 'host', label: 'Host' });
    expect(linux.protocols.find((p: Row) => p.name === 'ssh')).toMatchObject({
      port: 22,
      primary: true,
      required: true,
    });
    expect(linux.protocols.find((p: Row) => p.name === 'sftp').setting).toEqual({ sftp_home: '/tmp' });
    expect((await admin.get(`${A}/platforms/Website/`)).json().domain_enabled).toBe(false);
  });

  it('refuses changing or deleting an internal platform; custom platforms have full CRUD with integer ids', async () => {
    for (const m of ['PUT', 'PATCH', 'DELETE']) {
      const res = await req(m, `${A}/platforms/Linux/`, m === 'DELETE' ? undefined : { comment: 'x' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: 'Internal platform' });
    }
    const created = await admin.post(`${A}/platforms/`, {
      name: 'MyLinux',
      category: 'host',
      type: 'linux',
      protocols: [{ name: 'ssh', port: 2222 }],
    });
    expect(created.statusCode).toBe(201);
    const p = created.json();
    expect(p.id).toBeGreaterThan(29);
    expect(p.protocols[0]).toMatchObject({ name: 'ssh', port: 2222, primary: true });
    expect((await req('PATCH', `${A}/platforms/${p.id}/`, { comment: 'mine' })).json().comment).toBe('mine');
    expect((await req('DELETE', `${A}/platforms/MyLinux/`)).statusCode).toBe(204);
  });
});

const host = (name: string, extra: Row = {}) => ({
  name,
  address: `10.0.0.${name.length}`,
  platform: 'Linux',
  ...extra,
});

describe('assets of every category', () => {
  it('creates one asset per category with the platform defaults, and refuses a create on assets/', async () => {
    const cases: [string, Row, string][] = [
      ['hosts', host('h1'), 'ssh'],
      [
        'devices',
        { name: 'sw1', address: '10.1.0.1', platform: { pk: (await admin.get(`${A}/platforms/Cisco/`)).json().id } },
        'ssh',
      ],
      ['databases', { name: 'db1', address: '10.2.0.1', platform: 'MySQL', db_name: 'app' }, 'mysql'],
      ['clouds', { name: 'k8s1', address: 'https://k8s.example.com:6443', platform: 'Kubernetes' }, 'k8s'],
      ['webs', { name: 'web1', address: 'https://intranet.example.com', platform: 'Website' }, 'http'],
      [
        'gpts',
        { name: 'gpt1', address: 'https://api.openai.com', platform: 'ChatGPT', proxy: 'http://proxy:3128' },
        'chatgpt',
      ],
    ];
    const custom = (
      await admin.post(`${A}/platforms/`, {
        name: 'Serial',
        category: 'custom',
        type: 'serial',
        protocols: [{ name: 'telnet', port: 23 }],
      })
    ).json();
    cases.push(['customs', { name: 'c1', address: '10.3.0.1', platform: custom.id, custom_info: { a: 1 } }, 'telnet']);
    for (const [url, body, proto] of cases) {
      const res = await admin.post(`${A}/${url}/`, body);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
      const a = res.json();
      expect(a.protocols[0].name).toBe(proto);
      expect(a.nodes).toEqual([{ id: expect.any(String), name: 'DEFAULT' }]);
      expect(a.connectivity).toEqual({ value: '-', label: 'Unknown' });
      expect((await admin.get(`${A}/${url}/${a.id}/`)).json().name).toBe(body.name);
    }
    const all: Row[] = (await admin.get(`${A}/assets/?order=name`)).json();
    expect(all.map((a) => a.category.value).sort()).toEqual([
      'cloud',
      'custom',
      'database',
      'device',
      'gpt',
      'host',
      'web',
    ]);
    expect((await admin.get(`${A}/webs/`)).json().map((a: Row) => a.name)).toEqual(['web1']);
    const direct = await admin.post(`${A}/assets/`, host('nope'));
    expect(direct.statusCode).toBe(400);
    expect(direct.json()).toEqual({ error: 'Cannot create asset directly, you should create a host or other' });
    expect((await admin.post(`${A}/hosts/`, { name: 'x', address: 'x', platform: 'MySQL' })).statusCode).toBe(400);
  });

  it('checks ports, protocols of the platform, labels as name:value; nulls the domain when the platform has none', async () => {
    const bad = await admin.post(`${A}/hosts/`, host('p1', { protocols: [{ name: 'ssh', port: 70000 }] }));
    expect(bad.json()).toEqual({ protocols: ['Port Error, please check'] });
    expect(
      (
        await admin.post(
          `${A}/hosts/`,
          host('p2', {
            protocols: [
              { name: 'mysql', port: 3306 },
              { name: 'ssh', port: 22 },
            ],
          }),
        )
      ).statusCode,
    ).toBe(400);
    expect(
      (await admin.post(`${A}/hosts/`, host('p3', { protocols: [{ name: 'sftp', port: 22 }] }))).json().protocols[0],
    ).toMatch(/ssh is required/);
    expect((await admin.post(`${A}/hosts/`, host('p4', { labels: ['nocolon'] }))).json()).toEqual({
      labels: ['Format error, correct format is name:value'],
    });
    const dom = (await admin.post(`${A}/domains/`, { name: 'dmz' })).json();
    const a = (
      await admin.post(
        `${A}/hosts/`,
        host('p5', { labels: ['env:prod', 'team:ops'], domain: dom.id, protocols: [{ name: 'ssh', port: 2222 }] }),
      )
    ).json();
    expect(a.labels.map((l: Row) => `${l.name}:${l.value}`)).toEqual(['env:prod', 'team:ops']);
    expect(a.domain).toEqual({ id: dom.id, name: 'dmz' });
    expect(a.protocols).toEqual([{ name: 'ssh', port: 2222 }]);
    const w = (
      await admin.post(`${A}/webs/`, { name: 'w2', address: 'http://w', platform: 'Website', domain: 'dmz' })
    ).json();
    expect(w.domain).toBeNull();
    expect((await admin.get(`${A}/assets/?label=env:prod`)).json().map((x: Row) => x.name)).toEqual(['p5']);
    expect((await admin.get(`${A}/assets/?protocols=ssh&platform=Linux&search=p5`)).json().length).toBe(1);
    expect((await admin.get(`${A}/labels/?name=env`)).json()[0].asset_count).toBe(1);
    expect((await admin.get(`${A}/domains/${dom.id}/`)).json().assets).toEqual([{ id: a.id, name: 'p5' }]);
    const page = (await admin.get(`${A}/hosts/?limit=1&order=-name&search=p`)).json();
    expect(page.count).toBe(1);
    expect(page.results[0].name).toBe('p5');
  });

  it('bulk updates: platform only within the same type, no bulk domain for devices, clouds and webs', async () => {
    const h = (await admin.post(`${A}/hosts/`, host('b1'))).json();
    const dev = (await admin.get(`${A}/devices/?name=sw1`)).json()[0];
    const dom = (await admin.post(`${A}/domains/`, { name: 'bulk-dom' })).json();
    const mismatch = await req('PATCH', `${A}/hosts/`, [{ id: h.id, platform: 'Windows' }]);
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()[0].platform[0]).toMatch(/does not match the asset type/);
    const same = await req('PATCH', `${A}/hosts/`, [{ id: h.id, platform: 'Gateway', comment: 'moved' }]);
    expect(same.statusCode).toBe(200);
    expect(same.json()[0].platform.name).toBe('Gateway');
    const domRes = await req('PATCH', `${A}/assets/`, [
      { id: h.id, domain: dom.id },
      { id: dev.id, domain: dom.id },
    ]);
    expect(domRes.statusCode).toBe(400);
    expect(domRes.json()[0]).toEqual({});
    expect(domRes.json()[1].domain[0]).toMatch(/cannot be put in a domain/);
    expect((await req('PATCH', `${A}/assets/`, [{ id: h.id, domain: dom.id }])).json()[0].domain.name).toBe('bulk-dom');
  });

  it('keeps favourites per user', async () => {
    const h = (await admin.get(`${A}/hosts/?name=h1`)).json()[0];
    expect((await admin.post(`${A}/favorite-assets/`, { asset: h.id })).statusCode).toBe(201);
    expect((await admin.get(`${A}/favorite-assets/`)).json()).toEqual([{ asset: h.id }]);
    expect((await req('DELETE', `${A}/favorite-assets/?asset=${h.id}`)).statusCode).toBe(204);
    expect((await admin.get(`${A}/favorite-assets/`)).json()).toEqual([]);
  });
});

describe('import and export by name', () => {
  it('imports ten assets from a CSV naming platforms, node paths and the domain', async () => {
    await admin.post(`${A}/domains/`, { name: 'import-dom' });
    const lines = ['*Name,*IP/Host,*Platform,Node path,Domain,Labels'];
    for (let i = 0; i < 10; i++)
      lines.push(
        `imp${i},192.168.9.${i},${i % 2 ? 'Linux' : 'Windows'},"[""/DEFAULT/Imported/Rack ${i % 3}""]",import-dom,env:imp`,
      );
    const parsed = await admin.request({
      method: 'POST',
      url: `${A}/hosts/render-to-json/`,
      payload: lines.join('\n'),
      headers: { 'content-type': 'text/csv' },
    });
    expect(parsed.statusCode, parsed.body).toBe(200);
    const rows = parsed.json().data;
    expect(rows[1]).toMatchObject({ name: 'imp1', platform: 'Linux', nodes_display: ['/DEFAULT/Imported/Rack 1'] });
    const created = await admin.post(`${A}/hosts/`, rows);
    expect(created.statusCode, created.body).toBe(201);
    const got: Row[] = (await admin.get(`${A}/hosts/?search=imp&order=name`)).json();
    expect(got.length).toBe(10);
    expect(got[1]!.platform.name).toBe('Linux');
    expect(got[0]!.platform.name).toBe('Windows');
    expect(got[0]!.domain.name).toBe('import-dom');
    expect(got[4]!.nodes_display).toEqual(['/DEFAULT/Imported/Rack 1']);
    const tree: Row[] = (await admin.get(`${A}/nodes/children/tree/`)).json();
    expect(tree.find((n) => n.name.startsWith('Imported'))?.name).toBe('Imported (10)');
    const csv = await admin.get(`${A}/hosts/?format=csv&search=imp`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Windows(');
  });
});
