import net from 'node:net';
import { SYSTEM_ORG_ID } from '@gatehouse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { startSshd, type SshdWithUsers } from '../../../../test-support/sshd.ts';
import { makeZip, multipart } from '../../../../test-support/zip.ts';
import { pngImage } from '../../../../test-support/images.ts';

/**
 * Settings › Remote apps › Applet hosts (issue 38 item 4): hosts of the RemoteAppHost platform kept
 * in the system-setting organisation whatever org the caller names, their deploy options checked,
 * accounts generated, and deployments and applet installs run on the job engine. A Windows host
 * cannot run here: a deployment is tried against a closed port (it fails saying the host cannot be
 * reached) and against a real Linux sshd (reached and signed in to, then refused as not a Windows
 * host with PowerShell); what would follow on Windows is in docs/settings.md.
 */
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
const HOSTS = '/api/v1/terminal/applet-hosts/';
const DEPLOYMENTS = '/api/v1/terminal/applet-host-deployments/';

async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

async function makeHost(name: string, sshPort: number, accounts: unknown[], extra: Record<string, unknown> = {}) {
  const res = await admin.post(HOSTS, {
    name,
    address: '127.0.0.1',
    protocols: [
      { name: 'rdp', port: 3389 },
      { name: 'ssh', port: sshPort },
    ],
    accounts,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** The host's latest deployment once it has ended (the engine runs it in the background). */
async function deploymentOf(host: string) {
  let last: { status: { value: string } } | undefined;
  await expect
    .poll(
      async () => {
        last = (await admin.get(`${DEPLOYMENTS}?host=${host}`)).json()[0];
        return ['success', 'failed'].includes(last?.status.value ?? '');
      },
      { timeout: 45_000 },
    )
    .toBe(true);
  return last as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** The execution behind a deployment, once ended. */
async function executionOf(task: string) {
  return t.deps.database.db.selectFrom('ops_jobexecution').selectAll().where('id', '=', task).executeTakeFirstOrThrow();
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  sshd = await startSshd({ users: [{ username: 'deployer', password: 'Deploy-pass-1' }] });
}, 60_000);
afterAll(async () => {
  sshd?.stop();
  await t?.close();
});

describe('applet hosts', () => {
  it('are RemoteAppHost assets of the system org, with checked deploy options', async () => {
    const host = await makeHost('win-rds-1', 22, [], {
      deploy_options: { RDS_LicensingMode: 2, RDS_Licensing: true, RDS_LicenseServer: 'lic.corp.example' },
      accounts_create_amount: 3,
    });
    expect(host.platform.name).toBe('RemoteAppHost');
    expect(host.org_id).toBe(SYSTEM_ORG_ID);
    expect(host.load.value).toBe('offline');
    expect(host.deploy_options).toMatchObject({
      CORE_HOST: 'http://127.0.0.1:8080',
      IGNORE_VERIFY_CERTS: true,
      RDS_Licensing: true,
      RDS_LicenseServer: 'lic.corp.example',
      RDS_LicensingMode: 2,
      RDS_fSingleSessionPerUser: 1,
      RDS_MaxDisconnectionTime: 60000,
    });
    // A partial update keeps the other options.
    const patched = await admin.patch(`${HOSTS}${host.id}/`, { deploy_options: { RDS_MaxDisconnectionTime: 0 } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().deploy_options).toMatchObject({ RDS_LicensingMode: 2, RDS_MaxDisconnectionTime: 0 });
    const bad: [unknown, RegExp][] = [
      [{ RDS_LicensingMode: 3 }, /RDS_LicensingMode.*2, 4/],
      [{ CORE_HOST: 'javascript:alert(1)' }, /CORE_HOST/],
      [{ RDS_LicenseServer: 'a b; rm -rf /' }, /RDS_LicenseServer/],
      [{ NOT_AN_OPTION: 1 }, /NOT_AN_OPTION/],
      [{ IGNORE_VERIFY_CERTS: 'yes' }, /IGNORE_VERIFY_CERTS/],
    ];
    for (const [options, re] of bad) {
      const res = await admin.patch(`${HOSTS}${host.id}/`, { deploy_options: options });
      expect(res.statusCode).toBe(400);
      expect(res.json().deploy_options[0]).toMatch(re);
    }
    expect((await admin.patch(`${HOSTS}${host.id}/`, { accounts_create_amount: 100_000 })).statusCode).toBe(400);
    // Not an asset of the caller's org; found from any org on this route.
    const hosts = (await admin.get('/api/v1/assets/hosts/?limit=100')).json().results;
    expect(hosts.some((h: { id: string }) => h.id === host.id)).toBe(false);
    const list = (await admin.get(HOSTS)).json();
    expect(list.map((h: { name: string }) => h.name)).toContain('win-rds-1');
    // An ordinary host is no applet host.
    const linux = (
      await admin.post('/api/v1/assets/hosts/', { name: 'plain', address: '10.0.0.9', platform: 'Linux' })
    ).json();
    expect((await admin.get(`${HOSTS}${linux.id}/`)).statusCode).toBe(404);
    expect((await admin.post(DEPLOYMENTS, { host: linux.id })).statusCode).toBe(400);
  });

  it('generates shared accounts up to the amount and one per user, sealed, once', async () => {
    const host = (await admin.get(`${HOSTS}?name=win-rds-1`)).json()[0];
    const res = await admin.request({ method: 'PUT', url: `${HOSTS}${host.id}/generate-accounts/` });
    expect(res.statusCode, res.body).toBe(200);
    const accounts = (await admin.get(`${HOSTS}${host.id}/accounts/`)).json();
    const names = accounts.map((a: { username: string }) => a.username);
    expect(names.filter((n: string) => /^jms_[0-9a-f]{12}$/.test(n))).toHaveLength(3);
    expect(names).toContain('js_admin');
    expect(JSON.stringify(accounts)).not.toMatch(/"secret"/);
    const row = await t.deps.database.db
      .selectFrom('accounts_account')
      .select(['secret', 'org_id'])
      .where('asset_id', '=', host.id)
      .where('username', '=', 'js_admin')
      .executeTakeFirstOrThrow();
    expect(row.org_id).toBe(SYSTEM_ORG_ID);
    expect(row.secret).toMatch(/^gh1\$/);
    await admin.request({ method: 'PUT', url: `${HOSTS}${host.id}/generate-accounts/` });
    expect((await admin.get(`${HOSTS}${host.id}/accounts/`)).json()).toHaveLength(accounts.length);
  });

  it('deploys on the job engine and fails clearly when the host cannot be reached', async () => {
    const port = await closedPort();
    const host = await makeHost('win-down', port, [
      { username: 'Administrator', secret_type: 'password', secret: 'Admin-pass-1', privileged: true },
    ]);
    const res = await admin.post(DEPLOYMENTS, { host: host.id });
    expect(res.statusCode, res.body).toBe(201);
    const d = await deploymentOf(host.id);
    expect(await executionOf(res.json().task)).toMatchObject({ status: 'failed', job_type: 'applet_deploy' });
    expect(d).toMatchObject({ status: { value: 'failed' }, initial: true, task: res.json().task });
    expect(d.comment).toBe(`Cannot reach 127.0.0.1 port ${port}: connect ECONNREFUSED 127.0.0.1:${port}`);
    // Publishing an applet there: its publication fails with the same reason.
    const { payload, headers } = multipart(
      {},
      {
        field: 'file',
        filename: 'notepad.zip',
        data: makeZip([
          { name: 'manifest.yml', data: 'name: notepad\ndisplay_name: Notepad\nversion: 1.0\nprotocols: [rdp]\n' },
          { name: 'icon.png', data: pngImage(16, 16) },
          { name: 'setup.yml', data: 'type: manual\n' },
        ]),
      },
    );
    const applet = (
      await admin.request({ method: 'POST', url: '/api/v1/terminal/applets/upload/', payload, headers })
    ).json();
    const pub = await admin.post(`${DEPLOYMENTS}applets/`, { hosts: [host.id], applet_id: applet.id });
    expect(pub.statusCode, pub.body).toBe(201);
    const pending = (await admin.get(`/api/v1/terminal/applet-publications/?applet=${applet.id}`)).json();
    expect(pending).toHaveLength(1);
    await expect
      .poll(
        async () => (await admin.get(`/api/v1/terminal/applet-publications/?host=${host.id}`)).json()[0].status.value,
        {
          timeout: 45_000,
        },
      )
      .toBe('failed');
    const publication = (await admin.get(`/api/v1/terminal/applet-publications/?host=${host.id}`)).json()[0];
    expect(publication).toMatchObject({ applet: { name: 'notepad' }, status: { value: 'failed' } });
    expect(publication.comment).toContain('Cannot reach 127.0.0.1');
  }, 60_000);

  it('needs a privileged account, and refuses a host that is not Windows after signing in to it', async () => {
    const bare = await makeHost('win-no-account', sshd.port, []);
    const r1 = (await admin.post(DEPLOYMENTS, { host: bare.id })).json();
    expect(r1.task).toBeTruthy();
    expect((await deploymentOf(bare.id)).comment).toContain('no privileged account');
    const linux = await makeHost('linux-not-windows', sshd.port, [
      { username: 'deployer', secret_type: 'password', secret: 'Deploy-pass-1', privileged: true },
    ]);
    const r2 = (await admin.post(DEPLOYMENTS, { host: linux.id })).json();
    expect(r2.task).toBeTruthy();
    const d = await deploymentOf(linux.id);
    expect(d.status.value).toBe('failed');
    expect(d.comment).toContain('is not a Windows host with PowerShell over SSH');
    const wrong = await makeHost('win-wrong-pass', sshd.port, [
      { username: 'deployer', secret_type: 'password', secret: 'Wrong-pass-1', privileged: true },
    ]);
    const r3 = (await admin.post(DEPLOYMENTS, { host: wrong.id })).json();
    expect(r3.task).toBeTruthy();
    expect((await deploymentOf(wrong.id)).comment).toContain('SSH sign-in as deployer failed');
  }, 90_000);
});
