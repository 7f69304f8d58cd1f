import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { adminIdentity, hostWithAccounts, openShell, type GatewayUser } from '../../../../test-support/gateway.ts';
import { startShellSshd, type SshdWithUsers } from '../../../../test-support/sshd.ts';
import { freePort } from '../../../../test-support/ports.ts';
import { startS3, type TestS3 } from '../../../../test-support/s3.ts';
import { runRetention } from '../../ops/retention.ts';
import { DEFAULT_REPLAY_STORAGE_ID } from '../../../platform/db/migrations/m1250_terminal_storages.ts';

/**
 * Replay storages against a real S3 server on loopback (s3rver, which checks signatures): the
 * settings checked and their secret sealed, the connectivity test, and a session recorded through
 * the gateway while the S3 storage is the default: its recording is in the bucket, not on disk,
 * and the console's replay and download routes serve it from there; a storage that cannot be
 * reached leaves the recording local.
 */
const URL = '/api/v1/terminal/replay-storages/';
let t: TestApp;
let admin: SessionClient;
let s3: TestS3;
let sshd: SshdWithUsers;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
let target: { host: any; password: any };
let user: GatewayUser;

beforeAll(async () => {
  [s3, sshd, t] = await Promise.all([startS3(), startShellSshd(), createTestApp()]);
  admin = await adminClient(t.app);
  target = await hostWithAccounts(admin, sshd);
  user = await adminIdentity(t.app);
}, 60_000);
afterAll(async () => {
  sshd?.stop();
  await s3?.stop();
  await t?.close();
});

const s3Body = (more: Record<string, unknown> = {}) => ({
  name: `s3-${Math.random().toString(36).slice(2, 8)}`,
  type: 's3',
  meta: { BUCKET: s3.bucket, ACCESS_KEY: s3.accessKey, SECRET_KEY: s3.secretKey, ENDPOINT: s3.endpoint },
  ...more,
});

const del = (url: string) => admin.request({ method: 'DELETE', url });

async function recordSession(line: string) {
  const { s, term } = await openShell(t.app, { user, assetId: target.host.id, accountId: target.password.id });
  await term.run(line);
  await term.type('exit\r');
  await term.waitEnd();
  await expect.poll(async () => (await admin.get(`/api/v1/terminal/sessions/${s.id}/`)).json().has_replay).toBe(true);
  return s.id;
}

async function replayText(sessionId: string): Promise<string> {
  const info = await admin.get(`/api/v1/terminal/sessions/${sessionId}/replay/`);
  expect(info.statusCode).toBe(200);
  const file = await admin.get(info.json().src);
  expect(file.statusCode).toBe(200);
  return gunzipSync(file.rawPayload).toString('utf8');
}

describe('replay storages', () => {
  it('lists the built-in local storage as the default, which cannot be changed or deleted', async () => {
    const list = (await admin.get(URL)).json();
    expect(list).toEqual([
      expect.objectContaining({
        id: DEFAULT_REPLAY_STORAGE_ID,
        name: 'default',
        type: { value: 'server', label: 'Local' },
        is_default: true,
      }),
    ]);
    expect((await del(`${URL}${DEFAULT_REPLAY_STORAGE_ID}/`)).statusCode).toBe(400);
    expect((await admin.patch(`${URL}${DEFAULT_REPLAY_STORAGE_ID}/`, { name: 'mine' })).statusCode).toBe(400);
    expect((await admin.patch(`${URL}${DEFAULT_REPLAY_STORAGE_ID}/`, { is_default: false })).statusCode).toBe(400);
    expect((await admin.post(URL, { name: 'x', type: 'server' })).statusCode).toBe(400);
    const test = (await admin.get(`${URL}${DEFAULT_REPLAY_STORAGE_ID}/test-connective/`)).json();
    expect(test.is_valid).toBe(true);
  });

  it('checks the settings of the type, seals the secret and never answers it', async () => {
    const missing = await admin.post(URL, s3Body({ meta: { ACCESS_KEY: 'a', SECRET_KEY: 'b' } }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().meta.BUCKET).toEqual(['This field is required.']);
    const badUrl = await admin.post(
      URL,
      s3Body({ meta: { BUCKET: 'b', ACCESS_KEY: 'a', SECRET_KEY: 'b', ENDPOINT: 'file:///etc/passwd' } }),
    );
    expect(badUrl.json().meta.ENDPOINT[0]).toMatch(/http/);
    const notText = await admin.post(URL, s3Body({ meta: { BUCKET: ['x'], ACCESS_KEY: 'a', SECRET_KEY: 'b' } }));
    expect(notText.statusCode).toBe(400);
    const zh = await admin.post(URL, s3Body({ meta: {} }), { 'accept-language': 'zh-CN' });
    expect(zh.json().meta.BUCKET).toEqual(['该字段是必填项。']);
    expect((await admin.get(URL)).json()).toHaveLength(1);

    const created = await admin.post(
      URL,
      s3Body({ meta: { ...s3Body().meta, SECRET_KEY: 'Sup3r-secret-value', EXTRA: 'dropped' } }),
    );
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    expect(created.json().meta).toEqual({ BUCKET: s3.bucket, ACCESS_KEY: 'S3RVER', ENDPOINT: s3.endpoint });
    const stored = await t.deps.database.db
      .selectFrom('terminal_replaystorage')
      .select('meta')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored.meta).not.toContain('Sup3r-secret-value');
    expect(JSON.parse(stored.meta).SECRET_KEY).toMatch(/^gh1\$/);
    const logs = await t.deps.database.db
      .selectFrom('audits_operatelog')
      .selectAll()
      .where('resource_id', '=', id)
      .execute();
    expect(JSON.stringify(logs)).not.toContain('Sup3r-secret-value');

    // A bucket that is not there, and an access key s3rver does not know: the test says so.
    const noBucket = { ...s3Body().meta, BUCKET: 'missing', SECRET_KEY: '' };
    expect((await admin.patch(`${URL}${id}/`, { meta: noBucket })).statusCode).toBe(200);
    const bad = (await admin.get(`${URL}${id}/test-connective/`)).json();
    expect(bad.is_valid).toBe(false);
    expect(bad.msg).toMatch(/cannot be reached/);
    expect(
      (await admin.patch(`${URL}${id}/`, { meta: { ...noBucket, BUCKET: s3.bucket, ACCESS_KEY: 'nobody' } }))
        .statusCode,
    ).toBe(200);
    expect((await admin.get(`${URL}${id}/test-connective/`)).json().is_valid).toBe(false);
    // The empty secrets above kept the sealed one.
    const after = await t.deps.database.db
      .selectFrom('terminal_replaystorage')
      .select('meta')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(t.deps.secretBox.decrypt(JSON.parse(after.meta).SECRET_KEY)).toBe('Sup3r-secret-value');
    expect((await admin.patch(`${URL}${id}/`, { meta: s3Body().meta })).statusCode).toBe(200);
    expect((await admin.get(`${URL}${id}/test-connective/`)).json()).toEqual({
      is_valid: true,
      msg: expect.stringMatching(/Connected/),
    });
    expect((await admin.patch(`${URL}${id}/`, { type: 'azure' })).statusCode).toBe(400);
    expect((await del(`${URL}${id}/`)).statusCode).toBe(204);
  });

  it('writes recordings to the default S3 storage and replays and downloads them from there', async () => {
    const id = (await admin.post(URL, s3Body({ is_default: true }))).json().id;
    const list = (await admin.get(URL)).json() as { id: string; is_default: boolean }[];
    expect(list.filter((s) => s.is_default).map((s) => s.id)).toEqual([id]);

    const sessionId = await recordSession('echo kept-in-s3');
    const row = await t.deps.database.db
      .selectFrom('terminal_session')
      .select(['replay_path', 'replay_storage_id'])
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    expect(row.replay_storage_id).toBe(id);
    expect(fs.existsSync(path.join(t.dataDir, row.replay_path))).toBe(false);
    const object = s3.object(row.replay_path);
    expect(gunzipSync(object!).toString('utf8')).toContain('kept-in-s3');

    expect(await replayText(sessionId)).toContain('kept-in-s3');
    const tar = await admin.get(`/api/v1/terminal/sessions/${sessionId}/replay/download/`);
    expect(tar.statusCode).toBe(200);
    expect(tar.rawPayload.subarray(0, 100).toString('utf8')).toContain(`${sessionId}.cast.gz`);

    // A storage holding recordings cannot be deleted, nor the default.
    expect((await del(`${URL}${id}/`)).statusCode).toBe(400);
    // Back to local: new recordings stay on disk, the S3 one still replays.
    expect((await admin.patch(`${URL}${DEFAULT_REPLAY_STORAGE_ID}/`, { is_default: true })).statusCode).toBe(200);
    const local = await recordSession('echo kept-locally');
    expect(await replayText(local)).toContain('kept-locally');
    expect(await replayText(sessionId)).toContain('kept-in-s3');
    const deleted = await del(`${URL}${id}/`);
    expect(deleted.statusCode).toBe(400);
    expect(deleted.json().error).toMatch(/1 recordings/);

    // Retention (sessions are kept 200 days) removes the object with its session.
    await runRetention(t.deps, new Date(Date.now() + 201 * 86400_000));
    expect(s3.object(row.replay_path)).toBeUndefined();
  }, 60_000);

  it('keeps a recording local when the default storage cannot be reached', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const id = (
      await admin.post(URL, s3Body({ is_default: true, meta: { ...s3Body().meta, ENDPOINT: closed } }))
    ).json().id;
    expect((await admin.get(`${URL}${id}/test-connective/`)).json().is_valid).toBe(false);
    const sessionId = await recordSession('echo down-storage');
    const row = await t.deps.database.db
      .selectFrom('terminal_session')
      .select(['replay_path', 'replay_storage_id'])
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    expect(row.replay_storage_id).toBeNull();
    expect(await replayText(sessionId)).toContain('down-storage');
  }, 60_000);
});
