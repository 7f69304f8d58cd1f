import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShellSshd, type SshdWithUsers } from '../../../../test-support/sshd.ts';
import {
  byHost,
  leftoverRunDirs,
  plan,
  requireAnsible,
  runnerHost,
  sshdHost,
} from '../../../../test-support/ansible.ts';
import { createAnsibleRunner, executePlan } from './ansibleRunner.ts';

/**
 * The Ansible runner against a real sshd: modules as one-task playbooks, by password and by key,
 * through a domain gateway (a ProxyCommand over the same sshd), per-host results, streamed lines,
 * timeouts, and nothing of the run left on disk.
 */
let sshd: SshdWithUsers;
let dataDir: string;

beforeAll(async () => {
  requireAnsible();
  sshd = await startShellSshd();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-data-'));
});
afterAll(() => {
  sshd?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const byPassword = () => sshdHost(sshd);
const byKeyThroughGateway = (gatewayPassword = sshd.password) =>
  runnerHost({
    host: '127.0.0.1',
    port: sshd.port,
    username: sshd.username,
    privateKey: sshd.privateKey,
    hostKey: sshd.hostKey,
    gateway: {
      assetId: 'gateway-1',
      host: '127.0.0.1',
      port: sshd.port,
      username: sshd.username,
      password: gatewayPassword,
      hostKey: sshd.hostKey,
    },
  });

describe('the Ansible runner', () => {
  it('runs a shell module on two hosts (password; key through a gateway): per-host results, streamed lines, no template run', async () => {
    const a = byPassword();
    const b = byKeyThroughGateway();
    const args = `echo "hello {{ who }}"; echo "{{ lookup('pipe', 'id') }}"; echo "user=$USER"`;
    const { plan: p, lines } = plan([a, b], { kind: 'module', module: 'shell', args }, { variables: { who: 'world' } });
    const results = byHost(await createAnsibleRunner({ dataDir }).run(p));
    for (const h of [a, b]) {
      const r = results.get(h.assetId)!;
      expect(r, JSON.stringify(r)).toMatchObject({ status: 'ok', reason: '', exitCode: 0 });
      expect(lines.get(h.assetId)).toEqual(
        expect.arrayContaining([
          'TASK [shell] changed',
          'hello world',
          `{{ lookup('pipe', 'id') }}`,
          `user=${sshd.username}`,
        ]),
      );
      expect(r.output).toContain('hello world');
    }
    expect(leftoverRunDirs(p)).toEqual([]);
  });

  it('goes through the gateway: with a wrong gateway password the host is unreachable, the other one is not', async () => {
    const a = byPassword();
    const b = byKeyThroughGateway('wrong-password');
    const { plan: p } = plan([a, b], { kind: 'module', module: 'raw', args: 'echo raw-ok' });
    const results = byHost(await executePlan(p, { dataDir, check: true }));
    expect(results.get(a.assetId)!.status).toBe('ok');
    expect(results.get(a.assetId)!.output).toContain('raw-ok');
    expect(results.get(b.assetId)).toMatchObject({ status: 'failed', reason: expect.stringMatching(/^unreachable/) });
    expect(leftoverRunDirs(p)).toEqual([]);
  });

  it('runs python as a script on the asset, in the given folder', async () => {
    const a = byPassword();
    const { plan: p, lines } = plan(
      [a],
      { kind: 'module', module: 'python', args: 'import os\nprint(6 * 7, os.getcwd())' },
      { chdir: '/tmp' },
    );
    const [r] = await executePlan(p, { dataDir, check: true });
    expect(r!.status, r!.reason).toBe('ok');
    expect(lines.get(a.assetId), lines.get(a.assetId)!.join('\n')).toContain('42 /tmp');
  });

  it('times a host out per task, and kills the whole run at its deadline', async () => {
    const a = byPassword();
    const slow = plan([a], { kind: 'module', module: 'shell', args: 'sleep 30' }, { timeout: 2 });
    const [perTask] = await executePlan(slow.plan, { dataDir, check: true });
    expect(perTask).toMatchObject({ status: 'timeout' });
    const started = Date.now();
    const killed = plan([a], { kind: 'module', module: 'shell', args: 'sleep 30' }, { timeout: -1 });
    const [deadline] = await executePlan(killed.plan, { dataDir, check: true, deadlineMs: 2500 });
    expect(deadline).toMatchObject({ status: 'timeout', reason: expect.stringContaining('timed out') });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(leftoverRunDirs(killed.plan)).toEqual([]);
  });

  it('stops when the execution is stopped (the plan’s signal), killing the run', async () => {
    const a = byPassword();
    const stop = new AbortController();
    const { plan: p, lines } = plan(
      [a],
      { kind: 'module', module: 'shell', args: 'echo started; sleep 30' },
      { signal: stop.signal, timeout: -1 },
    );
    const started = Date.now();
    const running = executePlan(p, { dataDir, check: true });
    await expect
      .poll(() => fs.readdirSync(os.tmpdir()).some((f) => f.startsWith(`gh-ansible-${p.executionId}-`)))
      .toBe(true);
    stop.abort();
    const [r] = await running;
    expect(r).toMatchObject({ status: 'failed', reason: 'stopped' });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(lines.get(a.assetId)).not.toContain('started');
    expect(leftoverRunDirs(p)).toEqual([]);
  });

  it('refuses per host what it cannot run, with the reason', async () => {
    const runner = createAnsibleRunner({ dataDir });
    expect(await runner.available({ kind: 'module', module: 'shell', args: '' })).toEqual({ ok: true });
    const mysql = await runner.available({ kind: 'module', module: 'mysql', args: '' });
    expect(mysql).toMatchObject({ ok: false, reason: expect.stringContaining('community.mysql') });
    const bad = runnerHost({ host: '-oProxyCommand=touch /tmp/x', port: 22, username: 'root', password: 'x' });
    const ok = byPassword();
    const { plan: p } = plan([bad, ok], { kind: 'module', module: 'raw', args: 'true' });
    const results = byHost(await runner.run(p));
    expect(results.get(bad.assetId)).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('cannot be handed'),
    });
    expect(results.get(ok.assetId)!.status).toBe('ok');
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-playbook-'));
    try {
      const noEntry = plan([ok], { kind: 'playbook', dir: empty });
      const [r] = await runner.run(noEntry.plan);
      expect(r).toMatchObject({ status: 'failed', reason: "The playbook's entry file main.yml does not exist" });
    } finally {
      fs.rmSync(empty, { recursive: true });
    }
  });

  it('accepts only the host key pinned for each host (and its gateway): an impostor key fails before anything runs', async () => {
    const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-impostor-'));
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(keyDir, 'k')]);
    const impostor = fs.readFileSync(path.join(keyDir, 'k.pub'), 'utf8').split(' ').slice(0, 2).join(' ');
    fs.rmSync(keyDir, { recursive: true });
    const marker = (name: string) => path.join(sshd.home, `pinned-${name}`);
    const wrongHost = runnerHost({ ...byPassword().connection, hostKey: impostor });
    const gw = byKeyThroughGateway();
    const wrongGateway = runnerHost({ ...gw.connection, gateway: { ...gw.connection.gateway!, hostKey: impostor } });
    const unpinned = runnerHost({ ...byPassword().connection, hostKey: undefined });
    const ok = byPassword();
    const hosts = { wrongHost, wrongGateway, unpinned, ok };
    const runner = createAnsibleRunner({ dataDir });
    const ran = await Promise.all(
      Object.entries(hosts).map(async ([name, h]) => {
        const { plan: p } = plan([h], { kind: 'module', module: 'shell', args: `touch ${marker(name)}` });
        return [name, (await runner.run(p))[0]!] as const;
      }),
    );
    const results = new Map(ran);
    expect(results.get('ok'), JSON.stringify(results.get('ok'))).toMatchObject({ status: 'ok' });
    expect(fs.existsSync(marker('ok'))).toBe(true);
    for (const name of ['wrongHost', 'wrongGateway']) expect(results.get(name)!.status).not.toBe('ok');
    expect(results.get('wrongHost')!.output).toMatch(/host key/i);
    expect(results.get('unpinned')).toMatchObject({ status: 'failed', reason: expect.stringContaining('host key') });
    for (const name of ['wrongHost', 'wrongGateway', 'unpinned']) expect(fs.existsSync(marker(name))).toBe(false);
  });
});
