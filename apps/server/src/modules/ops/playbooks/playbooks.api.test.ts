import fs from 'node:fs';
import path from 'node:path';
import { BUILTIN_ROLE_IDS } from '@gatehouse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { signedInMember } from '../../../../test-support/gateway.ts';
import { startShellSshd, type SshdWithUsers } from '../../../../test-support/sshd.ts';
import { byHost, plan, requireAnsible, runnerHost } from '../../../../test-support/ansible.ts';
import { makeZip, multipart, type ZipItem } from '../../../../test-support/zip.ts';
import { createAnsibleRunner } from '../ansible/ansibleRunner.ts';
import { playbookDir, playbookEntryExists } from './playbookFiles.ts';
import { sweepStaging } from './playbookUpload.ts';

/**
 * Playbooks (contract §4.16): blank or uploaded as a zip, every bad zip refused with a message and
 * nothing left behind, the caller's own only, files gone with the row; and a playbook from an
 * uploaded zip run by the Ansible runner on two hosts.
 */
const URL = '/api/v1/ops/playbooks/';
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;

beforeAll(async () => {
  requireAnsible();
  [t, sshd] = await Promise.all([createTestApp(), startShellSshd()]);
  admin = await adminClient(t.app);
});
afterAll(async () => {
  sshd?.stop();
  await t?.close();
});

function upload(items: ZipItem[] | Buffer, fields: Record<string, string> = {}, client = admin, lang = 'en') {
  const data = Buffer.isBuffer(items) ? items : makeZip(items);
  const body = multipart(fields, { field: 'path', filename: 'deploy.zip', data });
  return client.request({
    method: 'POST',
    url: URL,
    payload: body.payload,
    headers: { ...body.headers, 'accept-language': lang },
  });
}

const playbookFolders = () =>
  fs.existsSync(path.join(t.dataDir, 'playbooks')) ? fs.readdirSync(path.join(t.dataDir, 'playbooks')) : [];
const rowCount = async () =>
  Number(
    (
      await t.deps.database.db
        .selectFrom('ops_playbook')
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const MAIN = `- hosts: all
  gather_facts: false
  tasks:
    - name: greet
      ansible.builtin.shell:
        cmd: cat {{ playbook_dir }}/files/greeting.txt; echo "from $(hostname)"
    - name: vars
      ansible.builtin.include_vars: vars/main.yml
    - name: say
      ansible.builtin.debug:
        msg: "{{ word }}"
`;

describe('playbooks', () => {
  it('creates a blank playbook with main.yml, lists it, and removes its folder with it', async () => {
    const res = await admin.post(URL, { name: 'blank-one', comment: 'c' });
    expect(res.statusCode, res.body).toBe(201);
    const pb = res.json();
    expect(pb).toMatchObject({ name: 'blank-one', create_method: { value: 'blank' }, path: '', comment: 'c' });
    expect(playbookEntryExists(t.dataDir, pb.id)).toBe(true);
    expect((await admin.get(`${URL}?search=blank-one`)).json().map((p: { id: string }) => p.id)).toEqual([pb.id]);
    expect((await admin.request({ method: 'DELETE', url: `${URL}${pb.id}/` })).statusCode).toBe(204);
    expect(fs.existsSync(playbookDir(t.dataDir, pb.id))).toBe(false);
  });

  it('refuses a create without a name, and from a VCS, in the caller’s language', async () => {
    expect((await admin.post(URL, {})).json()).toEqual({ name: [expect.any(String)] });
    const vcs = await admin.post(
      URL,
      { name: 'v', create_method: 'vcs', vcs_url: 'https://example.com/x.git' },
      { 'accept-language': 'zh' },
    );
    expect(vcs.statusCode).toBe(400);
    expect(vcs.json().create_method[0]).toContain('VCS');
    expect(vcs.json().create_method[0]).toMatch(/[\u4e00-\u9fff]/);
  });

  it('is the caller’s own: another member of the org neither lists nor reaches it', async () => {
    const mine = (await admin.post(URL, { name: 'admins-own' })).json();
    const { client: other } = await signedInMember(t, admin, 'pb_other', BUILTIN_ROLE_IDS.OrgUser);
    expect((await other.get(URL)).json()).toEqual([]);
    expect((await other.get(`${URL}${mine.id}/`)).statusCode).toBe(404);
    expect((await other.get(`/api/v1/ops/playbook/${mine.id}/file/`)).statusCode).toBe(404);
    expect((await other.request({ method: 'DELETE', url: `${URL}${mine.id}/` })).statusCode).toBe(404);
    const theirs = (await other.post(URL, { name: 'others-own' })).json();
    expect((await admin.get(`${URL}${theirs.id}/`)).statusCode).toBe(404);
    expect(fs.existsSync(playbookDir(t.dataDir, mine.id))).toBe(true);
  });

  const BAD_ZIPS: { name: string; items: ZipItem[] | Buffer; message: RegExp }[] = [
    {
      name: 'a ../ path',
      items: [
        { name: 'main.yml', data: 'x' },
        { name: '../../evil.yml', data: 'x' },
      ],
      message: /outside the playbook's folder/,
    },
    {
      name: 'an absolute path',
      items: [{ name: '/etc/cron.d/evil', data: 'x' }],
      message: /outside the playbook's folder/,
    },
    {
      name: 'a backslash path',
      items: [{ name: '..\\evil.yml', data: 'x' }],
      message: /outside the playbook's folder/,
    },
    {
      name: 'a symbolic link',
      items: [
        { name: 'main.yml', data: 'x' },
        { name: 'link', data: '/etc/shadow', mode: 0o120777 },
      ],
      message: /symbolic link/,
    },
    {
      name: 'a 1 GB entry (by its declared size)',
      items: [{ name: 'big.bin', data: 'tiny', declaredSize: 1024 ** 3 }],
      message: /big.bin in the zip is larger than 10 MB/,
    },
    {
      name: 'an entry that inflates past the limit whatever its header says',
      items: [{ name: 'bomb.bin', data: Buffer.alloc(24 * 1024 * 1024), declaredSize: 100 }],
      message: /bomb.bin in the zip is larger than 10 MB/,
    },
    {
      name: 'more entries than allowed',
      items: Array.from({ length: 1001 }, (_, i) => ({ name: `f${i}.yml`, data: '' })),
      message: /more than 1000 files/,
    },
    {
      name: 'a file that is not a zip',
      items: Buffer.from('not a zip at all, just text that is long enough'),
      message: /not a zip archive/,
    },
    {
      name: 'a duplicate entry',
      items: [
        { name: 'main.yml', data: 'a' },
        { name: './main.yml', data: 'b' },
      ],
      message: /appears twice/,
    },
  ];
  for (const bad of BAD_ZIPS)
    it(`refuses a zip with ${bad.name}, leaving no row and no folder`, async () => {
      const before = await rowCount();
      const res = await upload(bad.items, { name: `bad-${bad.name}` });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().path[0]).toMatch(bad.message);
      expect(await rowCount()).toBe(before);
      expect(playbookFolders().filter((f) => f.startsWith('.staging-'))).toEqual([]);
    });

  it('removes staging folders an interrupted upload left, once they are an hour old', () => {
    const root = path.join(t.dataDir, 'playbooks');
    fs.mkdirSync(path.join(root, '.staging-old'), { recursive: true });
    fs.mkdirSync(path.join(root, '.staging-new'), { recursive: true });
    const hourAgo = new Date(Date.now() - 3700_000);
    fs.utimesSync(path.join(root, '.staging-old'), hourAgo, hourAgo);
    expect(sweepStaging(t.dataDir)).toBe(1);
    expect(playbookFolders().filter((f) => f.startsWith('.staging-'))).toEqual(['.staging-new']);
    fs.rmdirSync(path.join(root, '.staging-new'));
  });

  it('refuses a zip over the upload limit', async () => {
    const big = makeZip([
      {
        name: 'noise.bin',
        data: Buffer.from(Array.from({ length: 21 * 1024 * 1024 }, (_, i) => (i * 7919) % 251)),
        method: 'store',
      },
    ]);
    const res = await upload(big, { name: 'too-big' }, admin, 'ja');
    expect(res.statusCode).toBe(400);
    expect(res.json().path[0]).toContain('20 MB');
    expect(playbookFolders().filter((f) => f.startsWith('.staging-'))).toEqual([]);
  });

  it('runs a playbook uploaded as a zip on two hosts, with per-host results and streamed lines', async () => {
    const res = await upload([
      { name: 'deploy/' },
      { name: 'deploy/main.yml', data: MAIN },
      { name: 'deploy/files/greeting.txt', data: 'hello from the zip\n' },
      { name: 'deploy/vars/main.yml', data: 'word: bonjour\n' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const pb = res.json();
    expect(pb).toMatchObject({ name: 'deploy', path: 'deploy.zip' });
    const dir = playbookDir(t.dataDir, pb.id);
    expect(fs.readdirSync(dir).sort()).toEqual(['files', 'main.yml', 'vars']);
    const tree = (await admin.get(`/api/v1/ops/playbook/${pb.id}/file/`)).json();
    expect(tree.slice(0, 2).map((n: { id: string }) => n.id)).toEqual(['root', 'main.yml']);

    const conn = { host: '127.0.0.1', port: sshd.port, username: sshd.username, hostKey: sshd.hostKey };
    const a = runnerHost({ ...conn, password: sshd.password });
    const b = runnerHost({ ...conn, privateKey: sshd.privateKey });
    const { plan: p, lines } = plan([a, b], { kind: 'playbook', dir });
    const results = byHost(await createAnsibleRunner({ dataDir: t.dataDir }).run(p));
    for (const h of [a, b]) {
      expect(results.get(h.assetId), JSON.stringify(results.get(h.assetId))).toMatchObject({ status: 'ok' });
      expect(lines.get(h.assetId)).toEqual(
        expect.arrayContaining(['TASK [greet] changed', 'TASK [say] ok', 'bonjour']),
      );
    }
  });
});
