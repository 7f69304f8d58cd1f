import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, openDeps } from '../../app.ts';
import {
  adminClient,
  createTestApp,
  TEST_DB,
  type SessionClient,
  type TestApp,
} from '../../../test-support/testApp.ts';
import { hostWithAccounts } from '../../../test-support/gateway.ts';
import { startShellSshd, type SshdWithUsers } from '../../../test-support/sshd.ts';
import { startS3, type TestS3 } from '../../../test-support/s3.ts';
import { SECRET_KEY_FILE } from '../../platform/crypto/secretBox.ts';
import { partKey } from './storage/replayStream.ts';

/**
 * An instance killed mid-session (issue 33; docs/deploy.md): one deployment on PostgreSQL, Redis and
 * an S3 store (s3rver on loopback), three instances with data folders of their own: A and B
 * (apps in this process) and a gateway in a child process (test-support/gatewayCrashRunner.ts)
 * holding a terminal session against a real sshd that types `echo marker-<n>`. Its recording is
 * streamed to the store while it runs; after `kill -9` of the child, A and B both sweep (every
 * heartbeat, 300 ms here), one of them ends the session at the child's last heartbeat, and its
 * replay, read from the store through B, plays every marker that had been streamed before the kill.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const ROOT = path.resolve(import.meta.dirname, '../../../../..');
const FAST = { GATEWAY_HEARTBEAT_MS: '300', REPLAY_STREAM_MS: '200' };
const SWEPT = 'sessions of a dead instance ended at its last heartbeat';

describe.runIf(redisUrl && TEST_DB === 'postgres')('an instance killed mid-session (PostgreSQL, Redis, S3)', () => {
  let a: TestApp;
  let b: { app: FastifyInstance; close(): Promise<void> };
  let s3: TestS3;
  let sshd: SshdWithUsers;
  let viaB: SessionClient;
  let child: ChildProcess | undefined;
  const dirs: string[] = [];

  /** A data folder of its own holding the deployment's secret key (docs/deploy.md). */
  const dataDir = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-peer-'));
    fs.copyFileSync(path.join(a.dataDir, SECRET_KEY_FILE), path.join(d, SECRET_KEY_FILE));
    dirs.push(d);
    return d;
  };

  beforeAll(async () => {
    [s3, sshd, a] = await Promise.all([startS3(), startShellSshd(), createTestApp({ REDIS_URL: redisUrl!, ...FAST })]);
    const deps = await openDeps({ ...a.deps.config, dataDir: dataDir() }, a.pgSchema ? { pgSchema: a.pgSchema } : {});
    const app = await buildApp(deps);
    await app.ready();
    b = {
      app,
      async close() {
        await app.close();
        await deps.close();
      },
    };
    viaB = await adminClient(b.app);
    const storage = await viaB.post('/api/v1/terminal/replay-storages/', {
      name: 'shared-s3',
      type: 's3',
      is_default: true,
      meta: { BUCKET: s3.bucket, ACCESS_KEY: s3.accessKey, SECRET_KEY: s3.secretKey, ENDPOINT: s3.endpoint },
    });
    expect(storage.statusCode).toBe(201);
  }, 60_000);
  afterAll(async () => {
    child?.kill('SIGKILL');
    await b?.close();
    await a?.close();
    sshd?.stop();
    await s3?.stop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  /** The recording's lines streamed to the store so far (its parts, in order). */
  const streamed = (rel: string): string => {
    let text = '';
    for (let seq = 1; ; seq++) {
      const part = s3.object(partKey(rel, seq));
      if (!part) return text;
      text += gunzipSync(part).toString('utf8');
    }
  };
  /** Markers whose output (not the typed command's echo) a recording shows. */
  const markers = (cast: string) => new Set([...cast.matchAll(/[^ ]marker-(\d+)\\r\\n/g)].map((m) => Number(m[1])));

  it('ends the session at the last heartbeat and replays from another instance what was streamed', async () => {
    const { host, password } = await hostWithAccounts(viaB, sshd);
    const user = await a.deps.database.db
      .selectFrom('users_user')
      .select('id')
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow();
    const logs = [vi.spyOn(a.app.log, 'info'), vi.spyOn(b.app.log, 'info')];
    const config = a.deps.config;
    // One process (`node --import tsx`): the `tsx` command would run the runner in a child it does not pass SIGKILL to.
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'apps/server/test-support/gatewayCrashRunner.ts')],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          ...FAST,
          DATA_DIR: dataDir(),
          DATABASE_URL: config.databaseUrl,
          REDIS_URL: config.redisUrl!,
          REDIS_PREFIX: config.redisPrefix,
          ...(a.pgSchema ? { GH_PG_SCHEMA: a.pgSchema } : {}),
          GH_GATEWAY_NAME: `dead-instance-${Date.now()}`,
          GH_USER_ID: user.id,
          GH_ASSET_ID: host.id,
          GH_ACCOUNT_ID: password.id,
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    child = proc;
    const exited = new Promise((r) => proc.once('exit', r));
    let out = '';
    proc.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    await expect.poll(() => /SESSION (\S+)/.exec(out)?.[1], { timeout: 120_000 }).toBeTruthy();
    const sessionId = /SESSION (\S+)/.exec(out)![1]!;
    await expect.poll(() => out.includes('SHOWN 5\n'), { timeout: 60_000 }).toBe(true);
    const row = await a.deps.database.db
      .selectFrom('terminal_session')
      .selectAll()
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    expect(row.replay_storage_id).toBeTruthy();
    // The store holds marker 5 once a part with it went up; the kill comes while it goes on typing.
    await expect.poll(() => markers(streamed(row.replay_path)).has(5), { timeout: 30_000 }).toBe(true);
    const before = markers(streamed(row.replay_path));
    proc.kill('SIGKILL');
    await exited;
    child = undefined;

    await expect
      .poll(async () => (await viaB.get(`/api/v1/terminal/sessions/${sessionId}/`)).json(), { timeout: 30_000 })
      .toMatchObject({ is_finished: true, has_replay: true });
    const terminal = await a.deps.database.db
      .selectFrom('terminal_terminal')
      .select('last_seen')
      .where('id', '=', row.terminal_id)
      .executeTakeFirstOrThrow();
    const ended = await a.deps.database.db
      .selectFrom('terminal_session')
      .selectAll()
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    // At the dead instance's last heartbeat, not when it was noticed.
    expect(ended.date_end).toBe(terminal.last_seen);
    expect(ended.replay_path).toBe(`${row.replay_path}.gz`);

    // Read from the store through B: neither A nor B ever had the file.
    const replay = await viaB.get(`/api/v1/terminal/sessions/${sessionId}/replay/`);
    expect(replay.statusCode).toBe(200);
    const cast = gunzipSync((await viaB.get(replay.json().src)).rawPayload).toString('utf8');
    expect(JSON.parse(cast.split('\n')[0]!)).toMatchObject({ version: 2 });
    const played = markers(cast);
    expect([...before].filter((n) => !played.has(n))).toEqual([]);
    expect(Math.min(...played)).toBe(1);
    // The parts are joined and gone from the store.
    expect(s3.object(partKey(row.replay_path, 1))).toBeUndefined();
    const commands = (await viaB.get(`/api/v1/terminal/commands/?session_id=${sessionId}&order=timestamp`)).json();
    expect(commands[0].input).toBe('echo marker-1');

    // A and B both swept every 300 ms; one of them ended the session.
    const winners = logs.flatMap((spy) =>
      spy.mock.calls.filter(
        ([fields, message]) =>
          message === SWEPT && ((fields as { sessions?: string[] }).sessions ?? []).includes(sessionId),
      ),
    );
    expect(winners).toHaveLength(1);
  }, 240_000);
});
