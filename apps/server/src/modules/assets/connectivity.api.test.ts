import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../testing/testApp.ts';

/** The connectivity test against a real OpenSSH server on 127.0.0.1 and a closed port. */
let t: TestApp;
let admin: SessionClient;
let sshd: ChildProcess;
let dir: string;
let sshPort: number;
let closedPort: number;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise<boolean>((r) => net.connect(port, '127.0.0.1').once('connect', function (this: net.Socket) { this.destroy(); r(true); }).once('error', () => r(false)));
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('sshd did not start');
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-sshd-'));
  // sshd started as root insists on its privilege separation directory (systemd creates it for the service).
  if (process.getuid?.() === 0) fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'host_key')]);
  sshPort = await freePort();
  closedPort = await freePort();
  fs.writeFileSync(path.join(dir, 'sshd_config'), [
    `Port ${sshPort}`, 'ListenAddress 127.0.0.1', `HostKey ${path.join(dir, 'host_key')}`, 'UsePAM no', 'PidFile none',
    'PasswordAuthentication no', 'KbdInteractiveAuthentication no', 'StrictModes no',
  ].join('\n'));
  sshd = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', path.join(dir, 'sshd_config')], { stdio: 'ignore' });
  await waitForPort(sshPort);
  t = await createTestApp();
  admin = await adminClient(t.app);
}, 30_000);
afterAll(async () => {
  sshd?.kill();
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function finished(task: string): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answer
  for (let i = 0; i < 200; i++) {
    const s = (await admin.get(`/api/v1/ops/celery/task/${task}/`)).json();
    if (s.state === 'SUCCESS' || s.state === 'FAILURE') return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('task did not finish');
}

describe('asset connectivity test', () => {
  it('records Reachable after an SSH handshake and Unreachable for a closed port', async () => {
    const up = (await admin.post('/api/v1/assets/hosts/', { name: 'sshd', address: '127.0.0.1', platform: 'Linux', protocols: [{ name: 'ssh', port: sshPort }] })).json();
    const down = (await admin.post('/api/v1/assets/hosts/', { name: 'closed', address: '127.0.0.1', platform: 'Linux', protocols: [{ name: 'ssh', port: closedPort }] })).json();
    const one = await admin.post(`/api/v1/assets/assets/${up.id}/tasks/`, { action: 'test' });
    expect(one.statusCode).toBe(200);
    const s1 = await finished(one.json().task);
    expect(s1).toMatchObject({ state: 'SUCCESS', total: 1, done: 1 });
    expect(s1.results[0].protocols[0]).toMatchObject({ name: 'ssh', port: sshPort, ok: true });
    const a = (await admin.get(`/api/v1/assets/hosts/${up.id}/`)).json();
    expect(a.connectivity).toEqual({ value: 'ok', label: 'Ok' });
    expect(a.date_verified).not.toBeNull();

    const both = await admin.post('/api/v1/assets/assets/tasks/', { action: 'test', assets: [up.id, down.id] });
    const s2 = await finished(both.json().task);
    expect(s2.results.map((r: { connectivity: string }) => r.connectivity)).toEqual(['ok', 'err']);
    expect((await admin.get(`/api/v1/assets/hosts/${down.id}/`)).json().connectivity.value).toBe('err');
    expect((await admin.post(`/api/v1/assets/assets/${up.id}/tasks/`, { action: 'bogus' })).statusCode).toBe(400);
  }, 30_000);
});
