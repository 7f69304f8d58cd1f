import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, openDeps } from '../../../app.ts';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { hostWithAccounts } from '../../../../test-support/gateway.ts';
import { makePerm, type Row } from '../../../../test-support/perms.ts';
import { listenOnLoopback } from '../../../../test-support/siteMsgSocket.ts';
import { terminalClient } from '../../../../test-support/webTerminal.ts';
import { startShellSshd, type SshdWithUsers } from '../../../../test-support/sshd.ts';
import { startS3, type TestS3 } from '../../../../test-support/s3.ts';
import { loadHostKey } from '../ssh/hostKey.ts';
import { SECRET_KEY_FILE } from '../../../platform/crypto/secretBox.ts';

/**
 * Two instances of one deployment (one database, one Redis, an S3 store: s3rver on loopback), each
 * with a data folder of its own, as two machines behind a balancer would be (docs/deploy.md): a
 * web-terminal session recorded on A against a real sshd replays and downloads from B, both
 * present the same native SSH host key and trust the self-issued licence, both report the store in
 * `/api/health/`, and an instance given another secret key refuses to start.
 */
const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)('one deployment, two instances with data folders of their own (Redis)', () => {
  let a: TestApp;
  let b: { app: FastifyInstance; dataDir: string; close(): Promise<void> };
  let s3: TestS3;
  let sshd: SshdWithUsers;
  let viaA: SessionClient;
  let viaB: SessionClient;
  let target: { host: Row; password: Row };

  beforeAll(async () => {
    [s3, sshd, a] = await Promise.all([startS3(), startShellSshd(), createTestApp({ REDIS_URL: redisUrl! })]);
    // B is given only what docs/deploy.md says every instance must be given: the secret key.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-peer-'));
    fs.copyFileSync(path.join(a.dataDir, SECRET_KEY_FILE), path.join(dataDir, SECRET_KEY_FILE));
    const deps = await openDeps({ ...a.deps.config, dataDir }, a.pgSchema ? { pgSchema: a.pgSchema } : {});
    const app = await buildApp(deps);
    await app.ready();
    b = {
      app,
      dataDir,
      async close() {
        await app.close();
        await deps.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
    viaA = await adminClient(a.app);
    viaB = await adminClient(b.app);
    target = await hostWithAccounts(viaA, sshd);
    const me = (await viaA.get('/api/v1/users/profile/')).json() as Row;
    await makePerm(viaA, { users: [me.id], assets: [target.host.id], accounts: ['@ALL'], actions: ['connect'] });
    const storage = await viaA.post('/api/v1/terminal/replay-storages/', {
      name: 'shared-s3',
      type: 's3',
      is_default: true,
      meta: { BUCKET: s3.bucket, ACCESS_KEY: s3.accessKey, SECRET_KEY: s3.secretKey, ENDPOINT: s3.endpoint },
    });
    expect(storage.statusCode).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    sshd?.stop();
    // The last test stops it already.
    await s3?.stop().catch(() => undefined);
  });

  it('replays from B a web-terminal session recorded on A', async () => {
    const base = await listenOnLoopback(a.app);
    const token = (
      await viaA.post('/api/v1/authentication/connection-token/', {
        asset: target.host.id,
        account: target.password.name,
        protocol: 'ssh',
        connect_method: 'web_cli',
      })
    ).json() as Row;
    const term = terminalClient(base, token.id);
    await term.waitFor(() => term.text().includes('gh$ '), 'the prompt');
    const sessionId = term.msgs.find((m) => m.type === 'CONNECT')!.id!;
    await term.type('echo recorded-on-$((6*7))\r');
    await term.waitFor(() => term.text().includes('recorded-on-42'), 'the output');
    term.ws.send(JSON.stringify({ type: 'CLOSE' }));
    await term.closed;

    await expect
      .poll(async () => (await viaB.get(`/api/v1/terminal/sessions/${sessionId}/`)).json().has_replay)
      .toBe(true);
    const row = await a.deps.database.db
      .selectFrom('terminal_session')
      .select('replay_path')
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    // Nothing of it on either instance's disk: B can only have read it from the store.
    expect(fs.existsSync(path.join(a.dataDir, row.replay_path))).toBe(false);
    expect(fs.existsSync(path.join(b.dataDir, row.replay_path))).toBe(false);
    const replay = await viaB.get(`/api/v1/terminal/sessions/${sessionId}/replay/`);
    expect(replay.statusCode).toBe(200);
    const file = await viaB.get(replay.json().src);
    expect(file.statusCode).toBe(200);
    expect(gunzipSync(file.rawPayload).toString('utf8')).toContain('recorded-on-42');
    const tar = await viaB.get(`/api/v1/terminal/sessions/${sessionId}/replay/download/`);
    expect(tar.statusCode).toBe(200);
    const commands = (await viaB.get(`/api/v1/terminal/commands/?session_id=${sessionId}`)).json() as Row[];
    expect(commands.map((c) => c.input)).toEqual(['echo recorded-on-$((6*7))']);
  }, 60_000);

  it('presents the same native SSH host key from both', async () => {
    const [keyA, keyB] = await Promise.all([
      loadHostKey(a.deps.database.db, a.deps.secretBox, a.dataDir),
      loadHostKey(b.app.deps.database.db, b.app.deps.secretBox, b.dataDir),
    ]);
    expect(keyB).toBe(keyA);
  });

  it('trusts on B the licence A issued itself', async () => {
    const detail = (await viaB.get('/api/v1/xpack/license/detail')).json();
    expect(detail).toMatchObject({ is_valid: true, edition: 'Enterprise' });
  });

  it('refuses to start an instance given another secret key, naming the setting', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-stray-'));
    try {
      await expect(
        openDeps({ ...a.deps.config, dataDir }, a.pgSchema ? { pgSchema: a.pgSchema } : {}),
      ).rejects.toMatchObject({ setting: 'GATEHOUSE_SECRET_KEY' });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('reports the database, Redis and the store in /api/health/ on both, and a store that is down', async () => {
    for (const app of [a.app, b.app]) {
      const health = await app.inject({ method: 'GET', url: '/api/health/' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toMatchObject({ status: true, db_status: true, redis_status: true, storage_status: true });
    }
    await s3.stop();
    const down = await b.app.inject({ method: 'GET', url: '/api/health/' });
    // Still in service: recordings stay on the instance's disk until the store is back.
    expect(down.statusCode).toBe(200);
    expect(down.json()).toMatchObject({ status: true, storage_status: false });
  });
});
