import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { listenOnLoopback } from '../../../test-support/siteMsgSocket.ts';
import { collectTaskLog } from '../../../test-support/taskLog.ts';
import { encryptGatehouse } from '../../../test-support/transportSecret.ts';
import { browserPublicKey } from '../../../test-support/auth.ts';
import { startAzureStandIn, type AzureStandIn } from '../../../test-support/azureStandIn.ts';
import { PROVIDERS } from './providers/index.ts';
import { AZURE_INTERNATIONAL, createAzureProvider } from './providers/azure.ts';
import { createEcsProvider } from './providers/aliyunEcs.ts';
import type { CloudProvider } from './providers/provider.ts';
import { startAliyunStandIn, type AliyunStandIn } from '../../../test-support/aliyunStandIn.ts';

/**
 * The public-cloud providers through the API and the job engine, each against its LOCAL STAND-IN
 * (test-support/*StandIn.ts: the clouds cannot be reached from here; nothing of a stand-in ships).
 * The shipped provider is swapped for one pointed at the stand-in for this file only. Wrong
 * credentials are a clear 400 on test and a failed run saying why; right ones import the hosts,
 * the secret sent transport-encrypted as the console sends it, then sealed.
 */
type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
let t: TestApp;
let admin: SessionClient;
let base: string;
let key: string;
let az: AzureStandIn;
let ecs: AliyunStandIn;
const shipped: Record<string, CloudProvider> = {};
const C = '/api/v1/xpack/cloud';

beforeAll(async () => {
  az = await startAzureStandIn();
  shipped.azure_international = PROVIDERS.azure_international!;
  PROVIDERS.azure_international = createAzureProvider('azure_international', {
    ...AZURE_INTERNATIONAL,
    login: az.url,
    arm: az.url,
    maxWaitMs: 5,
    timeoutMs: 2000,
  });
  ecs = await startAliyunStandIn();
  shipped.aliyun = PROVIDERS.aliyun!;
  PROVIDERS.aliyun = createEcsProvider('aliyun', { home: ecs.url, endpoint: () => ecs.url, timeoutMs: 2000 });
  t = await createTestApp();
  admin = await adminClient(t.app);
  base = await listenOnLoopback(t.app);
  // The console page gives the browser its transport key.
  await admin.get('/ui/');
  key = browserPublicKey(admin);
}, 60_000);

afterAll(async () => {
  Object.assign(PROVIDERS, shipped);
  await t?.close();
  await az?.close();
  await ecs?.close();
});

async function runToEnd(taskId: string): Promise<{ exec: Row; log: string }> {
  const run = await admin.get(`${C}/sync-instance-tasks/${taskId}/run/`);
  expect(run.statusCode, run.body).toBe(200);
  const id = run.json().task as string;
  const cookie = `${SESSION_COOKIE}=${admin.jar.values.get(SESSION_COOKIE)}`;
  const log = await collectTaskLog(base, { cookie }, id, 30_000);
  let exec: Row | undefined;
  await expect
    .poll(async () => {
      exec = ((await admin.get(`${C}/sync-instance-tasks/${taskId}/history/`)).json() as Row[]).find(
        (e) => e.id === id,
      );
      return exec?.is_finished;
    })
    .toBe(true);
  return { exec: exec!, log: log.messages.map((m) => m.message ?? '').join('') };
}

interface Case {
  provider: string;
  secretAttr: string;
  attrs: () => Record<string, string>;
  secret: () => string;
  /** Three instances over two regions, named with `prefix`. */
  seed: () => void;
  /** The provider releases one of them. */
  release: () => void;
  prefix: string;
  /** Part of the message of a refused secret. */
  refusal: RegExp;
}

const cases: Case[] = [
  {
    provider: 'azure_international',
    secretAttr: 'client_secret',
    attrs: () => ({ client_id: az.clientId, tenant_id: az.tenant, subscription_id: az.subscription }),
    secret: () => az.secret,
    seed: () => {
      az.vms = [
        { name: 'az-web', location: 'westeurope', privateIp: '10.20.0.4', tags: { env: 'prod' } },
        { name: 'az-db', location: 'westeurope', privateIp: '10.20.0.5', os: 'Windows' },
        { name: 'az-east', location: 'eastus', privateIp: '10.30.0.4' },
      ];
    },
    release: () => void az.vms.splice(1, 1),
    prefix: 'az-',
    refusal: /AADSTS7000215/,
  },
  {
    provider: 'aliyun',
    secretAttr: 'access_key_secret',
    attrs: () => ({ access_key_id: ecs.keyId }),
    secret: () => ecs.secret,
    seed: () => {
      ecs.instances = [
        { id: 'i-bp1web', name: 'ali-web', region: 'cn-hangzhou', vpcIp: '172.16.0.4', tags: { env: 'prod' } },
        { id: 'i-bp1db', name: 'ali-db', region: 'cn-hangzhou', vpcIp: '172.16.0.5', os: 'windows' },
        { id: 'i-sg1east', name: 'ali-east', region: 'ap-southeast-1', vpcIp: '172.30.0.4' },
      ];
    },
    release: () => void ecs.instances.splice(1, 1),
    prefix: 'ali-',
    refusal: /SignatureDoesNotMatch/,
  },
];

describe.each(cases)('$provider through the API and the job engine', (c) => {
  let account: Row;
  let task: Row;

  it('refuses a wrong secret on test and on run, clearly, and marks nothing a success', async () => {
    c.seed();
    const res = await admin.post(`${C}/accounts/`, {
      name: `${c.provider} account`,
      provider: c.provider,
      attrs: { ...c.attrs(), [c.secretAttr]: 'not-the-secret' },
    });
    expect(res.statusCode, res.body).toBe(201);
    account = res.json();
    expect(res.body).not.toContain('not-the-secret');
    const test = await admin.get(`${C}/accounts/${account.id}/test-connective/`);
    expect(test.statusCode).toBe(400);
    // The provider's reason inside the translated message.
    expect(test.json().detail).toMatch(/^The provider refused the credentials: /);
    expect(test.json().detail).toMatch(c.refusal);
    expect((await admin.get(`${C}/accounts/${account.id}/`)).json().validity).toBe(false);
    task = (
      await admin.post(`${C}/sync-instance-tasks/`, {
        name: `${c.provider} task`,
        account: account.id,
        regions: [],
        release_policy: 'remove',
      })
    ).json();
    const { exec, log } = await runToEnd(task.id);
    expect(exec).toMatchObject({ status: 'failed', is_success: false });
    expect(String(exec.summary.error)).toMatch(c.refusal);
    expect(log).toMatch(c.refusal);
  }, 60_000);

  it('imports the instances of every region once the secret is right, changes nothing the second time, and releases', async () => {
    const patched = await admin.request({
      method: 'PATCH',
      url: `${C}/accounts/${account.id}/`,
      // As the console sends it: transport-encrypted.
      payload: { attrs: { [c.secretAttr]: encryptGatehouse(key, c.secret()) } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.body).not.toContain(c.secret());
    expect((await admin.get(`${C}/accounts/${account.id}/test-connective/`)).statusCode).toBe(200);
    const first = await runToEnd(task.id);
    expect(first.exec).toMatchObject({ status: 'success', summary: { created: 3 } });
    const hosts = async () =>
      ((await admin.get(`/api/v1/assets/hosts/?search=${c.prefix}`)).json() as Row[])
        .map((h) => `${h.name.slice(c.prefix.length)} ${h.address.replace(/^\d+\.\d+\./, '')}`)
        .sort();
    expect(await hosts()).toEqual(['db 0.5', 'east 0.4', 'web 0.4']);
    const second = await runToEnd(task.id);
    expect(second.exec.summary).toMatchObject({ created: 0, updated: 0, unchanged: 3, released: 0 });
    c.release();
    const third = await runToEnd(task.id);
    expect(third.exec.summary).toMatchObject({ created: 0, unchanged: 2, released: 1 });
    // The task's policy removes a released instance's asset.
    expect(await hosts()).toEqual(['east 0.4', 'web 0.4']);
  }, 60_000);
});
