import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { startSmsStandIns, STANDIN, type SmsStandIns } from '../../../../test-support/smsStandIns.ts';
import { USER_PASSWORD, createUser } from '../../../../test-support/auth.ts';

/**
 * Messages › SMS: each backend's test button, and the sign-in's SMS step through the configured
 * backend. `custom` is an HTTP request to a local server; Alibaba, Tencent, Huawei and CMPP 2.0
 * cannot be reached from here, so local stand-ins of their documented APIs answer, each checking
 * the request's signature (test-support/smsStandIns.ts).
 */
let t: TestApp;
let admin: SessionClient;
let sms: SmsStandIns;
const S = '/api/v1/settings/setting/';
const PHONE = '+8613800000009';

beforeAll(async () => {
  sms = await startSmsStandIns();
  t = await createTestApp();
  admin = await adminClient(t.app);
});
afterAll(async () => {
  await t.close();
  await sms.close();
});

const forms: Record<string, Record<string, unknown>> = {
  alibaba: {
    ALIBABA_ACCESS_KEY_ID: STANDIN.key,
    ALIBABA_ACCESS_KEY_SECRET: STANDIN.secret,
    ALIBABA_VERIFY_SIGN_NAME: 'Gatehouse',
    ALIBABA_VERIFY_TEMPLATE_CODE: 'SMS_1',
  },
  tencent: {
    TENCENT_SECRET_ID: STANDIN.key,
    TENCENT_SECRET_KEY: STANDIN.secret,
    TENCENT_SDKAPPID: '1400000000',
    TENCENT_VERIFY_SIGN_NAME: 'Gatehouse',
    TENCENT_VERIFY_TEMPLATE_CODE: '100001',
  },
  huawei: {
    HUAWEI_APP_KEY: STANDIN.key,
    HUAWEI_APP_SECRET: STANDIN.secret,
    HUAWEI_SIGN_CHANNEL_NUM: '8820000001',
    HUAWEI_VERIFY_SIGN_NAME: 'Gatehouse',
    HUAWEI_VERIFY_TEMPLATE_CODE: 'tpl-1',
  },
  cmpp2: {
    CMPP2_HOST: '127.0.0.1',
    CMPP2_SP_ID: STANDIN.cmppSp,
    CMPP2_SP_SECRET: STANDIN.cmppSecret,
    CMPP2_SRC_ID: '10690000',
    CMPP2_SERVICE_ID: 'GH',
    CMPP2_VERIFY_SIGN_NAME: '网关',
    CMPP2_VERIFY_TEMPLATE_CODE: '验证码 {code}',
  },
  custom: { CUSTOM_SMS_REQUEST_METHOD: 'post', CUSTOM_SMS_API_PARAMS: { to: '{phone}', text: 'code {code}' } },
};

describe('SMS backends', () => {
  it('lists the five backends', async () => {
    const list = (await admin.get('/api/v1/settings/sms/backend/')).json() as { name: string }[];
    expect(list.map((b) => b.name)).toEqual(['alibaba', 'tencent', 'huawei', 'cmpp2', 'custom']);
  });

  it.each(['alibaba', 'tencent', 'huawei', 'cmpp2', 'custom'])(
    '%s: the test button sends a code the provider accepts',
    async (backend) => {
      const endpoint = {
        alibaba: { ALIBABA_SMS_ENDPOINT: `${sms.url}/alibaba/` },
        tencent: { TENCENT_SMS_ENDPOINT: `${sms.url}/tencent/` },
        huawei: { HUAWEI_SMS_ENDPOINT: `${sms.url}/huawei` },
        cmpp2: { CMPP2_PORT: sms.cmppPort },
        custom: { CUSTOM_SMS_URL: `${sms.url}/custom/` },
      }[backend];
      const before = sms.sent.length;
      const res = await admin.post(`/api/v1/settings/sms/${backend}/testing/`, {
        ...forms[backend],
        ...endpoint,
        SMS_TEST_PHONE: PHONE,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().msg).toBe(`Sent a test code to ${PHONE}`);
      const got = sms.sent.slice(before);
      expect(got).toHaveLength(1);
      expect(got[0]!.provider).toBe(backend);
      expect(got[0]!.phone).toBe(backend === 'cmpp2' ? '13800000009' : PHONE);
      expect(got[0]!.text).toMatch(backend === 'cmpp2' ? /^【网关】验证码 \d{6}$/ : /\d{6}/);
    },
  );

  it('names the provider’s refusal: a wrong secret fails the signature', async () => {
    const res = await admin.post('/api/v1/settings/sms/alibaba/testing/', {
      ...forms.alibaba,
      ALIBABA_ACCESS_KEY_SECRET: 'wrong',
      ALIBABA_SMS_ENDPOINT: `${sms.url}/alibaba/`,
      SMS_TEST_PHONE: PHONE,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('The SMS was not sent: Specified signature is not matched');
    const cmpp = await admin.post('/api/v1/settings/sms/cmpp2/testing/', {
      ...forms.cmpp2,
      CMPP2_SP_SECRET: 'wrong',
      CMPP2_PORT: sms.cmppPort,
      SMS_TEST_PHONE: PHONE,
    });
    expect(cmpp.json().msg).toBe('The SMS was not sent: CMPP connect refused: 3');
    const phone = await admin.post('/api/v1/settings/sms/custom/testing/', { SMS_TEST_PHONE: '12; rm' });
    expect(phone.json()).toEqual({ SMS_TEST_PHONE: ['Give a phone number to send the test code to'] });
    expect((await admin.post('/api/v1/settings/sms/pigeon/testing/', {})).statusCode).toBe(404);
  });

  it('serves the SMS sign-in step through the saved backend (Tencent), its secret sealed', async () => {
    for (const [category, body] of [
      ['tencent', { ...forms.tencent, TENCENT_SMS_ENDPOINT: `${sms.url}/tencent/` }],
      ['sms', { SMS_ENABLED: true, SMS_BACKEND: 'tencent' }],
    ] as const) {
      const res = await admin.patch(`${S}?category=${category}`, body);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).not.toHaveProperty('TENCENT_SECRET_KEY');
    }
    await createUser(t, 'sms_tc', { phone: '+8613800000077', mfa_level: 1 });
    const c = new SessionClient(t.app);
    expect((await c.login('sms_tc', USER_PASSWORD)).json()).toMatchObject({ error: 'mfa_required' });
    const before = sms.sent.length;
    expect((await c.post('/api/v1/authentication/mfa/select/', { type: 'sms' })).statusCode).toBe(200);
    const sent = sms.sent.slice(before);
    expect(sent).toEqual([{ provider: 'tencent', phone: '+8613800000077', text: expect.stringMatching(/^\d{6}$/) }]);
    const done = await c.post('/api/v1/authentication/mfa/verify/', { type: 'sms', code: sent[0]!.text });
    expect(done.statusCode, done.body).toBe(200);
  });
});
