import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { GatewayInstance } from './gateway/instance.ts';
import { hostWithAccounts } from '../../../test-support/gateway.ts';
import { startShellSshd, type SshdWithUsers } from '../../../test-support/sshd.ts';

/**
 * `kill -9` of a process holding a session (test-support/gatewayCrashRunner.ts in a child process): the
 * recording on disk holds what was shown up to the last second, and the next start of that
 * gateway finishes the session and compresses the recording into a readable asciicast.
 */
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;

beforeAll(async () => {
  sshd = await startShellSshd();
  t = await createTestApp();
  admin = await adminClient(t.app);
}, 30_000);
afterAll(async () => {
  sshd?.stop();
  await t?.close();
});

const ROOT = path.resolve(import.meta.dirname, '../../../../..');

describe('a crash mid-session', () => {
  it('keeps the recording up to the last second and finishes the session at the next start', async () => {
    const { host, password } = await hostWithAccounts(admin, sshd);
    const user = await t.deps.database.db
      .selectFrom('users_user')
      .select('id')
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow();
    const name = `crash-test-${Date.now()}`;
    // One process (`node --import tsx`): the `tsx` command would run the runner in a child it does not pass SIGKILL to.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'apps/server/test-support/gatewayCrashRunner.ts')],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          DATA_DIR: t.dataDir,
          DATABASE_URL: t.deps.config.databaseUrl,
          ...(t.pgSchema ? { GH_PG_SCHEMA: t.pgSchema } : {}),
          GH_GATEWAY_NAME: name,
          GH_USER_ID: user.id,
          GH_ASSET_ID: host.id,
          GH_ACCOUNT_ID: password.id,
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const shownAt = new Map<number, number>();
    const sessionId = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (b: Buffer) => {
        out += b.toString();
        const m = /SESSION (\S+)/.exec(out);
        if (m) resolve(m[1]!);
        for (const x of out.matchAll(/SHOWN (\d+)\n/g))
          if (!shownAt.has(Number(x[1]))) shownAt.set(Number(x[1]), Date.now());
      });
      child.once('exit', (code) => reject(new Error(`runner exited ${code}`)));
    });
    const row = await t.deps.database.db
      .selectFrom('terminal_session')
      .selectAll()
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    const cast = path.join(t.dataDir, row.replay_path);
    expect(row.replay_path).toMatch(/^replays\/\d{4}-\d{2}-\d{2}\/.+\.cast$/);
    // Let a few markers be shown, then kill the runner while it goes on typing.
    for (let i = 0; i < 400 && !shownAt.has(5); i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 1500));
    const killedAt = Date.now();
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const onDisk = fs.readFileSync(cast, 'utf8');
    const recorded = new Set([...onDisk.matchAll(/[^ ]marker-(\d+)\\r\\n/g)].map((m) => Number(m[1])));
    // Every marker shown at least a second before the kill is in the file.
    const due = [...shownAt].filter(([, at]) => at <= killedAt - 1000).map(([n]) => n);
    expect(due.length).toBeGreaterThanOrEqual(5);
    expect(due.filter((n) => !recorded.has(n))).toEqual([]);
    const last = Math.max(...recorded);
    expect(
      (
        await t.deps.database.db
          .selectFrom('terminal_session')
          .select('is_finished')
          .where('id', '=', sessionId)
          .executeTakeFirstOrThrow()
      ).is_finished,
    ).toBeFalsy();

    // The next start of the same gateway (same name) closes what the crash left behind.
    const next = new GatewayInstance({
      db: t.deps.database.db,
      bus: t.deps.bus,
      settings: t.deps.settings,
      secretBox: t.deps.secretBox,
      dataDir: t.dataDir,
      name,
    });
    await next.start();
    await next.stop();
    const s = (await admin.get(`/api/v1/terminal/sessions/${sessionId}/`)).json();
    expect(s).toMatchObject({ is_finished: true, has_replay: true, has_command: true });
    // Every command whose output was shown a second before the kill was recorded (how many that is
    // depends on the machine's speed, so the count is the test's own, not a constant).
    expect(s.command_amount).toBeGreaterThanOrEqual(due.length);
    expect(fs.existsSync(cast)).toBe(false);
    const replay = (await admin.get(`/api/v1/terminal/sessions/${sessionId}/replay/`)).json();
    const lines = gunzipSync((await admin.get(replay.src)).rawPayload)
      .toString('utf8')
      .trim()
      .split('\n');
    expect(JSON.parse(lines[0]!).version).toBe(2);
    const events = lines.slice(1).map((l) => JSON.parse(l) as [number, string, string]);
    expect(events.map((e) => e[2]).join('')).toContain(`marker-${last}\r\n`);
    const cmds = (await admin.get(`/api/v1/terminal/commands/?session_id=${sessionId}&order=timestamp`)).json();
    expect(cmds[0].input).toBe('echo marker-1');
  }, 180_000); // a node process importing the whole server takes long on a loaded 2-core machine
});
