import { randomUUID } from 'node:crypto';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { makeZip, multipart, type ZipItem } from '../../../../test-support/zip.ts';
import { pngImage } from '../../../../test-support/images.ts';
import { makeUser, PASSWORD } from '../../../../test-support/perms.ts';
import { customRole } from '../../../../test-support/roles.ts';

/**
 * Settings › Remote apps › Applets (issue 38 item 4): a zip upload checked before anything is
 * saved (hostile zips: paths leaving the package, links, bombs, too many entries, not a zip, a
 * missing or wrong manifest, an icon that is no PNG), answered in the uploader's language; an
 * applet of the same name replaced only when asked (`?update=1`) and by who may change applets;
 * the card data (icon, version, protocols), the switch, download and delete; who may do what.
 */
let t: TestApp;
let admin: SessionClient;
const URL = '/api/v1/terminal/applets/';

const MANIFEST = (over: Record<string, string> = {}) =>
  Object.entries({
    name: 'chrome',
    display_name: '"{{ \'Chrome Browser\' | trans }}"',
    version: '0.6',
    author: 'Gatehouse',
    type: 'web',
    protocols: '\n  - http',
    tags: '\n  - web',
    comment: 'Open a web page',
    i18n: '\n  Chrome Browser:\n    en: Chrome Browser\n    zh: Chrome 浏览器\n    ja: Chrome ブラウザ',
    ...over,
  })
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');

const pkg = (over: Record<string, string> = {}, top = 'chrome/'): ZipItem[] => [
  { name: `${top}manifest.yml`, data: MANIFEST(over) },
  { name: `${top}icon.png`, data: pngImage(32, 32) },
  { name: `${top}setup.yml`, data: 'type: manual\n' },
  { name: `${top}main.py`, data: 'print("hello")\n' },
];

function upload(client: SessionClient, data: Buffer, query = '', headers: Record<string, string> = {}) {
  const { payload, headers: h } = multipart({}, { field: 'file', filename: 'chrome.zip', data });
  return client.request({ method: 'POST', url: `${URL}upload/${query}`, payload, headers: { ...h, ...headers } });
}

async function holder(name: string, perms: string[]): Promise<SessionClient> {
  const u = await makeUser(admin, name);
  const db = t.deps.database.db;
  const role = await customRole(db, `role-${name}`, 'system', perms);
  await db.deleteFrom('rbac_rolebinding').where('user_id', '=', u.id).execute();
  await db
    .insertInto('rbac_rolebinding')
    .values({
      id: randomUUID(),
      user_id: u.id,
      role_id: role,
      scope: 'system',
      org_id: null,
      created_by: 'test',
      date_created: new Date().toISOString(),
    })
    .execute();
  const c = new SessionClient(t.app);
  expect((await c.login(name, PASSWORD)).statusCode).toBe(200);
  return c;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
});
afterAll(async () => t?.close());

describe('applet upload', () => {
  it('installs a package from its folder: the card data, the icon and a repacked download', async () => {
    const res = await upload(admin, makeZip(pkg()));
    expect(res.statusCode, res.body).toBe(201);
    const a = res.json();
    expect(a).toMatchObject({
      name: 'chrome',
      display_name: 'Chrome Browser',
      version: '0.6',
      author: 'Gatehouse',
      type: { value: 'web' },
      edition: { value: 'community' },
      protocols: ['http'],
      tags: ['web'],
      is_active: true,
      builtin: false,
    });
    const icon = await admin.get(a.icon);
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/png');
    expect(icon.headers['x-content-type-options']).toBe('nosniff');
    expect(icon.rawPayload.equals(pngImage(32, 32))).toBe(true);
    // The list (the card grid) and the detail by name, as a host's agent asks for it.
    const list = (await admin.get(URL)).json();
    expect(list.map((x: { name: string }) => x.name)).toEqual(['chrome']);
    expect((await admin.get(`${URL}chrome/`)).json().id).toBe(a.id);
    const dl = await admin.get(`${URL}${a.id}/download/`);
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-disposition']).toContain('chrome.zip');
    const zip = await JSZip.loadAsync(dl.rawPayload);
    expect(Object.keys(zip.files).sort()).toEqual(['icon.png', 'main.py', 'manifest.yml', 'setup.yml']);
    // In Chinese, the manifest's i18n block gives the display name.
    const zh = await upload(admin, makeZip(pkg({ name: 'chrome-zh' })), '', { 'accept-language': 'zh-CN' });
    expect(zh.json().display_name).toBe('Chrome 浏览器');
  });

  it('replaces an applet of the same name only when asked, keeping its id and switch', async () => {
    const first = (await admin.get(`${URL}chrome/`)).json();
    expect((await admin.patch(`${URL}${first.id}/`, { is_active: false })).statusCode).toBe(200);
    const again = await upload(admin, makeZip(pkg({ version: '0.7' })));
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toContain('already exists');
    expect((await admin.get(`${URL}chrome/`)).json().version).toBe('0.6');
    const updated = await upload(admin, makeZip(pkg({ version: '0.7' }, '')), '?update=1');
    expect(updated.statusCode, updated.body).toBe(201);
    expect(updated.json()).toMatchObject({ id: first.id, version: '0.7', is_active: false });
    expect(updated.json().icon).not.toBe(first.icon);
  });

  it('refuses hostile and broken zips with a clear message, saving nothing', async () => {
    const before = (await admin.get(URL)).json().length;
    const cases: [string, Buffer, RegExp][] = [
      ['not a zip', Buffer.from('MZ\x90\x00 this is an executable, not a zip'), /Only a zip file/],
      ['truncated zip', makeZip(pkg()).subarray(0, 60), /damaged|cannot be read/],
      [
        'path traversal',
        makeZip([...pkg({ name: 'evil1' }), { name: 'chrome/../../etc/cron.d/x', data: 'x' }]),
        /leaves the package/,
      ],
      ['absolute path', makeZip([...pkg({ name: 'evil2' }), { name: '/etc/passwd', data: 'x' }]), /leaves the package/],
      [
        'backslash path',
        makeZip([...pkg({ name: 'evil3' }), { name: '..\\..\\boot.ini', data: 'x' }]),
        /leaves the package/,
      ],
      [
        'symlink',
        makeZip([...pkg({ name: 'evil4' }), { name: 'chrome/link', data: '/etc/shadow', mode: 0o120777 }]),
        /link/,
      ],
      [
        'zip bomb (a header lying about the size)',
        makeZip([
          ...pkg({ name: 'evil5' }),
          { name: 'chrome/bomb.bin', data: Buffer.alloc(60 * 1024 * 1024), declaredSize: 1000 },
        ]),
        /more than 50 MB/,
      ],
      [
        'too many entries',
        makeZip([
          ...pkg({ name: 'evil6' }),
          ...Array.from({ length: 1001 }, (_, i) => ({ name: `chrome/f${i}`, data: '' })),
        ]),
        /more than 1000 entries/,
      ],
      [
        'missing manifest',
        makeZip(pkg().filter((i) => !i.name.endsWith('manifest.yml'))),
        /missing the file manifest\.yml/,
      ],
      ['missing icon', makeZip(pkg().filter((i) => !i.name.endsWith('icon.png'))), /missing the file icon\.png/],
      [
        'invalid yaml',
        makeZip([{ name: 'manifest.yml', data: 'name: [unclosed' }, ...pkg({}, '').slice(1)]),
        /not valid YAML/,
      ],
      [
        'manifest not a mapping',
        makeZip([{ name: 'chrome/manifest.yml', data: '- a\n- b' }, ...pkg().slice(1)]),
        /must be a mapping/,
      ],
      ['missing name', makeZip(pkg({ name: '' })), /"name" is required/],
      ['name with a path', makeZip(pkg({ name: '../x' })), /"name" may hold/],
      ['missing version', makeZip(pkg({ version: '' })), /"version" is required/],
      ['bad type', makeZip(pkg({ name: 'evil7', type: 'native' })), /"type" must be one of: general, web/],
      ['no protocols', makeZip(pkg({ name: 'evil8', protocols: '[]' })), /"protocols" is required/],
      [
        'icon not a png',
        makeZip([
          ...pkg({ name: 'evil9' }).filter((i) => !i.name.endsWith('icon.png')),
          { name: 'chrome/icon.png', data: '<svg/>' },
        ]),
        /not a PNG/,
      ],
    ];
    const wrong: string[] = [];
    for (const [what, data, expected] of cases) {
      const res = await upload(admin, data);
      const body = res.json();
      if (res.statusCode !== 400 || !expected.test(String(body.error ?? JSON.stringify(body))))
        wrong.push(`${what}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
    expect((await admin.get(URL)).json().length).toBe(before);
    // Over the upload limit: refused while reading.
    const huge = await upload(admin, Buffer.concat([makeZip(pkg()), Buffer.alloc(11 * 1024 * 1024)]));
    expect(huge.statusCode).toBe(400);
    expect(huge.json().file[0]).toContain('10 MB');
    // No file at all, and the message in Japanese.
    const none = await admin.request({
      method: 'POST',
      url: `${URL}upload/`,
      payload: {},
      headers: { 'accept-language': 'ja' },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().file[0]).toContain('zip ファイルを選択');
    const zh = await upload(admin, Buffer.from('not a zip at all, just text'), '', { 'accept-language': 'zh-CN' });
    expect(zh.json().error).toBe('只能上传 zip 文件作为远程应用。');
  }, 60_000);

  it('is never created by a plain POST; an enterprise applet needs a licence', async () => {
    const res = await admin.post(URL, { name: 'x', display_name: 'x', version: '1' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('uploading');
  });
});

describe('who may', () => {
  it('views with view_applet, uploads with add_applet, replaces only with change_applet too, deletes with delete_applet', async () => {
    const viewer = await holder('applet-viewer', ['settings.view_setting', 'terminal.view_applet']);
    const adder = await holder('applet-adder', [
      'settings.view_setting',
      'terminal.view_applet',
      'terminal.add_applet',
    ]);
    const nobody = await holder('applet-nobody', ['settings.view_setting']);
    expect((await nobody.get(URL)).statusCode).toBe(403);
    const chrome = (await viewer.get(`${URL}chrome/`)).json();
    expect((await viewer.get(chrome.icon)).statusCode).toBe(200);
    expect((await nobody.get(chrome.icon)).statusCode).toBe(403);
    expect((await nobody.get(`${URL}${chrome.id}/download/`)).statusCode).toBe(403);
    expect((await upload(viewer, makeZip(pkg({ name: 'viewer-app' })))).statusCode).toBe(403);
    expect((await upload(adder, makeZip(pkg({ name: 'adder-app' })))).statusCode).toBe(201);
    const replace = await upload(adder, makeZip(pkg({ version: '9.9' })), '?update=1');
    expect(replace.statusCode).toBe(403);
    expect((await admin.get(`${URL}chrome/`)).json().version).toBe('0.7');
    expect((await viewer.request({ method: 'DELETE', url: `${URL}${chrome.id}/` })).statusCode).toBe(403);
    expect((await admin.request({ method: 'DELETE', url: `${URL}${chrome.id}/` })).statusCode).toBe(204);
    expect((await admin.get(`${URL}chrome/`)).statusCode).toBe(404);
    const left = await t.deps.database.db
      .selectFrom('terminal_appletpackage')
      .select('applet_id')
      .where('applet_id', '=', chrome.id)
      .execute();
    expect(left).toEqual([]);
  });
});
