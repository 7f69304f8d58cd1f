import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionClient, createTestApp, type TestApp } from '../../../test-support/testApp.ts';
import { USER_PASSWORD, createUser } from '../../../test-support/auth.ts';

/** SMS codes through the configurable HTTP gateway, against a receiver on 127.0.0.1. */
let t: TestApp;
let gateway: http.Server;
let status = 200;
const received: { method: string; url: string; body: string }[] = [];

beforeAll(async () => {
  gateway = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, body });
      res.writeHead(status, { 'Content-Type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
  t = await createTestApp();
  const port = (gateway.address() as AddressInfo).port;
  await t.deps.settings.set('SMS_ENABLED', true);
  await t.deps.settings.set('CUSTOM_SMS_URL', `http://127.0.0.1:${port}/sms/send`);
  await t.deps.settings.set('CUSTOM_SMS_API_PARAMS', { to: '{phone}', text: 'Gatehouse code {code}', sign: 'gh' });
});
afterAll(async () => {
  await t.close();
  await new Promise((r) => gateway.close(r));
});

const lastCode = () => {
  const r = received.at(-1)!;
  const text = r.body
    ? (JSON.parse(r.body) as { text: string }).text
    : new URL(r.url, 'http://x').searchParams.get('text')!;
  return /code (\d{6})$/.exec(text)![1]!;
};

describe('SMS as the second sign-in step', () => {
  it('offers sms to a user with a phone, sends the code through the gateway, and signs in with it', async () => {
    await createUser(t, 'sms_ann', { phone: '+8613800000001', mfa_level: 1 });
    const c = new SessionClient(t.app);
    const first = await c.login('sms_ann', USER_PASSWORD);
    expect(first.json()).toMatchObject({ error: 'mfa_required', data: { choices: ['sms'] } });

    const sent = await c.post('/api/v1/authentication/mfa/select/', { type: 'sms' });
    expect(sent.statusCode).toBe(200);
    const call = received.at(-1)!;
    expect(call.method).toBe('POST');
    expect(call.url).toBe('/sms/send');
    expect(JSON.parse(call.body)).toMatchObject({ to: '+8613800000001', sign: 'gh' });
    const code = lastCode();

    const again = await c.post('/api/v1/authentication/mfa/send-code/', { type: 'sms' });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toMatch(/wait \d+ seconds/);
    expect(received).toHaveLength(1);

    const wrongType = await c.post('/api/v1/authentication/mfa/select/', { type: 'otp' });
    expect(wrongType.json()).toEqual({ error: 'Current user not support mfa type: otp' });
    const done = await c.post('/core/auth/login/mfa/', { mfa_type: 'sms', code });
    expect(done.json()).toMatchObject({ ok: true });
  });

  it('uses GET with query parameters when configured, and reports a gateway failure clearly', async () => {
    await createUser(t, 'sms_bo', { phone: '13900000002', mfa_level: 1 });
    await t.deps.settings.set('CUSTOM_SMS_REQUEST_METHOD', 'get');
    try {
      const c = new SessionClient(t.app);
      await c.login('sms_bo', USER_PASSWORD);
      status = 500;
      const failed = await c.post('/api/v1/authentication/mfa/select/', { type: 'sms' });
      expect(failed.statusCode).toBe(400);
      expect(failed.json().error).toContain('The SMS gateway did not accept the message (HTTP 500)');
      status = 200;
      // A failed send does not start the 60 s wait.
      expect((await c.post('/api/v1/authentication/mfa/select/', { type: 'sms' })).statusCode).toBe(200);
      const url = new URL(received.at(-1)!.url, 'http://x');
      expect(received.at(-1)!.method).toBe('GET');
      expect(url.searchParams.get('to')).toBe('13900000002');
      const code = lastCode();
      expect(
        (
          await c.post('/core/auth/login/mfa/', { mfa_type: 'sms', code: code === '000000' ? '000001' : '000000' })
        ).json().error,
      ).toBe('mfa_failed');
      expect((await c.post('/core/auth/login/mfa/', { mfa_type: 'sms', code })).json().ok).toBe(true);
    } finally {
      status = 200;
      await t.deps.settings.set('CUSTOM_SMS_REQUEST_METHOD', 'post');
    }
  });

  it('sends no code to anyone by username without a pending sign-in', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/authentication/mfa/select/',
      payload: { type: 'sms', username: 'sms_ann' },
    });
    expect(res.statusCode).toBe(401);
  });
});
