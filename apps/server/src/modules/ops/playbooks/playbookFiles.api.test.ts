import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { playbookDir } from './playbookFiles.ts';

/** The playbook file browser (contract §4.16): the tree, reading, creating, renaming, saving, deleting, all inside the playbook's folder. */
let t: TestApp;
let admin: SessionClient;
let id: string;
let dir: string;
let files: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  id = (await admin.post('/api/v1/ops/playbooks/', { name: 'browse' })).json().id;
  dir = playbookDir(t.dataDir, id);
  files = `/api/v1/ops/playbook/${id}/file/`;
});
afterAll(async () => t?.close());

const send = (method: string, body: unknown, lang = 'en') =>
  admin.request({ method, url: files, payload: body as object, headers: { 'accept-language': lang } });
const del = (key: string) => admin.request({ method: 'DELETE', url: `${files}?key=${encodeURIComponent(key)}` });

describe('playbook file browser', () => {
  it('gives the tree, main.yml first, and a file’s content', async () => {
    const tree = (await admin.get(files)).json();
    expect(tree[0]).toMatchObject({ id: 'root', name: 'browse', isParent: true });
    expect(tree[1]).toMatchObject({ id: 'main.yml', pId: 'root', isParent: false, iconSkin: 'file' });
    expect((await admin.get(`${files}?key=main.yml`)).json().content).toContain('hosts: all');
  });

  it('creates files and folders, numbering a name that is taken, and saves and renames them', async () => {
    expect((await send('POST', { key: 'root', is_directory: true, name: 'roles' })).json()).toMatchObject({
      id: 'roles',
      pId: 'root',
      isParent: true,
    });
    const made = (await send('POST', { key: 'roles', name: 'site.yml', content: 'a: 1\n' })).json();
    expect(made).toMatchObject({ id: 'roles/site.yml', pId: 'roles', isParent: false });
    expect((await send('POST', { key: 'roles', name: 'site.yml' })).json().id).toBe('roles/site.yml(1)');
    expect((await send('POST', { key: '' })).json().id).toBe('new_file.yml');
    const patched = await send('PATCH', { key: 'roles/site.yml', new_name: 'web.yml', content: 'b: 2\n' });
    expect(patched.json()).toEqual({ msg: 'ok' });
    expect(fs.readFileSync(path.join(dir, 'roles', 'web.yml'), 'utf8')).toBe('b: 2\n');
    expect((await send('PATCH', { key: 'roles/web.yml', new_name: 'site.yml(1)' })).statusCode).toBe(400);
    expect((await send('PATCH', { key: 'main.yml', content: '- hosts: all\n' })).statusCode).toBe(200);
    expect(fs.readFileSync(path.join(dir, 'main.yml'), 'utf8')).toBe('- hosts: all\n');
    const tree = (await admin.get(`${files}?expand=roles`)).json();
    expect(tree.find((n: { id: string }) => n.id === 'roles')).toMatchObject({ open: true });
    expect(tree.map((n: { id: string }) => n.id)).toEqual(
      expect.arrayContaining(['roles/web.yml', 'roles/site.yml(1)', 'new_file.yml']),
    );
    expect((await del('roles')).json()).toEqual({ msg: 'ok' });
    expect(fs.existsSync(path.join(dir, 'roles'))).toBe(false);
  });

  it('keeps every key inside the playbook’s folder', async () => {
    const before = fs.readFileSync('/etc/passwd', 'utf8');
    const outside = ['../../etc/passwd', '/etc/passwd', '..', 'x/../../..', '..\\..\\etc\\passwd', `../${id}/main.yml`];
    for (const key of outside) {
      const read = await admin.get(`${files}?key=${encodeURIComponent(key)}`);
      expect(read.statusCode, key).toBe(400);
      expect(read.body).not.toContain('root:x:0:0');
      expect((await send('POST', { key, name: 'x.yml', content: 'x' })).statusCode, key).toBe(400);
      expect((await send('PATCH', { key, content: 'owned' })).statusCode, key).toBe(400);
      expect((await del(key)).statusCode, key).toBe(400);
    }
    expect((await admin.get(`${files}?expand=../..`)).statusCode).toBe(400);
    expect((await send('POST', { key: 'root', name: '../escape.yml' })).statusCode).toBe(400);
    expect((await send('PATCH', { key: 'new_file.yml', new_name: '../../escape.yml' })).statusCode).toBe(400);
    expect(fs.readFileSync('/etc/passwd', 'utf8')).toBe(before);
    expect(fs.existsSync(path.join(dir, '..', 'escape.yml'))).toBe(false);
    // A symbolic link someone put there is not followed.
    fs.symlinkSync('/etc', path.join(dir, 'etc'));
    const viaLink = await admin.get(`${files}?key=etc/passwd`, { 'accept-language': 'zh' });
    expect(viaLink.statusCode).toBe(400);
    expect(viaLink.json().detail).toMatch(/[\u4e00-\u9fff]/);
    expect((await send('POST', { key: 'etc', name: 'cron.yml' })).statusCode).toBe(400);
    fs.unlinkSync(path.join(dir, 'etc'));
  });

  it('protects the folder itself and main.yml, and says what is missing', async () => {
    expect((await del('main.yml')).statusCode).toBe(400);
    expect((await del('root')).statusCode).toBe(400);
    expect((await admin.request({ method: 'DELETE', url: files })).statusCode).toBe(400);
    expect((await send('PATCH', { key: 'main.yml', new_name: 'site.yml' })).json().detail).toContain('main.yml');
    expect((await send('PATCH', { key: 'root', new_name: 'x' })).statusCode).toBe(400);
    const missing = await admin.get(`${files}?key=nope.yml`, { 'accept-language': 'ja' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().detail).toContain('nope.yml');
    expect(fs.existsSync(path.join(dir, 'main.yml'))).toBe(true);
  });

  it('answers 404 for a playbook that is not there', async () => {
    expect((await admin.get('/api/v1/ops/playbook/00000000-0000-4000-8000-000000000000/file/')).statusCode).toBe(404);
  });
});
