import { createHash, createHmac, randomUUID } from 'node:crypto';
import { jsonOf, str, timeout, type SmsBackend } from './smsConfig.ts';

/**
 * The SMS backends reached over HTTP, each built to its provider's documented API with the base
 * URL a setting (a stand-in answers in the tests, docs/notifications.md):
 * - alibaba: Dysmsapi `SendSms` (RPC style, version 2017-05-25), signed HMAC-SHA1 (signature v1);
 * - tencent: SMS API 3.0 `SendSms` (version 2021-01-11), signed TC3-HMAC-SHA256;
 * - huawei: Message & SMS `batchSendSms/v1`, authenticated with WSSE UsernameToken;
 * - custom: an HTTP request with the configured method, URL and parameters (`{code}`, `{phone}`).
 */

/** RFC 3986 encoding as Alibaba's signature needs it. */
const pct = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function alibabaSignature(params: Record<string, string>, secret: string, method = 'GET'): string {
  const canonical = Object.keys(params)
    .sort()
    .map((k) => `${pct(k)}=${pct(params[k]!)}`)
    .join('&');
  const toSign = `${method}&${pct('/')}&${pct(canonical)}`;
  return createHmac('sha1', `${secret}&`).update(toSign).digest('base64');
}

export const alibaba: SmsBackend = {
  name: 'alibaba',
  async send(s, m) {
    const params: Record<string, string> = {
      AccessKeyId: await str(s, 'ALIBABA_ACCESS_KEY_ID'),
      Action: 'SendSms',
      Format: 'JSON',
      PhoneNumbers: m.phone,
      RegionId: 'cn-hangzhou',
      SignName: await str(s, 'ALIBABA_VERIFY_SIGN_NAME'),
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: randomUUID(),
      SignatureVersion: '1.0',
      TemplateCode: await str(s, 'ALIBABA_VERIFY_TEMPLATE_CODE'),
      TemplateParam: JSON.stringify({ code: m.code }),
      Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      Version: '2017-05-25',
    };
    const url = new URL(await str(s, 'ALIBABA_SMS_ENDPOINT'));
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    url.searchParams.set('Signature', alibabaSignature(params, await s.secret('ALIBABA_ACCESS_KEY_SECRET')));
    const body = await jsonOf(await fetch(url, { redirect: 'error', signal: timeout() }));
    if (body.Code !== 'OK') throw new Error(String(body.Message ?? body.Code ?? 'refused'));
  },
};

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const hmac = (key: Buffer | string, s: string) => createHmac('sha256', key).update(s).digest();

/** The TC3-HMAC-SHA256 `Authorization` of a JSON POST to `/`. */
export function tencentAuthorization(o: {
  secretId: string;
  secretKey: string;
  host: string;
  service: string;
  timestamp: number;
  payload: string;
}): string {
  const date = new Date(o.timestamp * 1000).toISOString().slice(0, 10);
  const headers = `content-type:application/json; charset=utf-8\nhost:${o.host}\n`;
  const signed = 'content-type;host';
  const request = ['POST', '/', '', headers, signed, sha256(o.payload)].join('\n');
  const scope = `${date}/${o.service}/tc3_request`;
  const toSign = ['TC3-HMAC-SHA256', String(o.timestamp), scope, sha256(request)].join('\n');
  const key = hmac(hmac(hmac(`TC3${o.secretKey}`, date), o.service), 'tc3_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return `TC3-HMAC-SHA256 Credential=${o.secretId}/${scope}, SignedHeaders=${signed}, Signature=${signature}`;
}

export const tencent: SmsBackend = {
  name: 'tencent',
  async send(s, m) {
    const url = new URL(await str(s, 'TENCENT_SMS_ENDPOINT'));
    const payload = JSON.stringify({
      PhoneNumberSet: [m.phone],
      SmsSdkAppId: await str(s, 'TENCENT_SDKAPPID'),
      SignName: await str(s, 'TENCENT_VERIFY_SIGN_NAME'),
      TemplateId: await str(s, 'TENCENT_VERIFY_TEMPLATE_CODE'),
      TemplateParamSet: [m.code],
    });
    const timestamp = Math.floor(Date.now() / 1000);
    const authorization = tencentAuthorization({
      secretId: await str(s, 'TENCENT_SECRET_ID'),
      secretKey: await s.secret('TENCENT_SECRET_KEY'),
      host: url.host,
      service: 'sms',
      timestamp,
      payload,
    });
    const res = await fetch(url, {
      method: 'POST',
      redirect: 'error',
      signal: timeout(),
      headers: {
        Authorization: authorization,
        'Content-Type': 'application/json; charset=utf-8',
        'X-TC-Action': 'SendSms',
        'X-TC-Timestamp': String(timestamp),
        'X-TC-Version': '2021-01-11',
        'X-TC-Region': 'ap-guangzhou',
      },
      body: payload,
    });
    const r = ((await jsonOf(res)).Response ?? {}) as {
      Error?: { Message?: string };
      SendStatusSet?: { Code?: string; Message?: string }[];
    };
    if (r.Error) throw new Error(r.Error.Message ?? 'refused');
    const status = r.SendStatusSet?.[0];
    if (status?.Code !== 'Ok') throw new Error(status?.Message ?? 'refused');
  },
};

/** The `X-WSSE` header of Huawei's App key authentication. */
export function huaweiWsse(appKey: string, appSecret: string, nonce: string, created: string): string {
  const digest = createHash('sha256')
    .update(nonce + created + appSecret)
    .digest('base64');
  return `UsernameToken Username="${appKey}",PasswordDigest="${digest}",Nonce="${nonce}",Created="${created}"`;
}

export const huawei: SmsBackend = {
  name: 'huawei',
  async send(s, m) {
    const base = (await str(s, 'HUAWEI_SMS_ENDPOINT')).replace(/\/+$/, '');
    const created = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const nonce = randomUUID().replaceAll('-', '');
    const form = new URLSearchParams({
      from: await str(s, 'HUAWEI_SIGN_CHANNEL_NUM'),
      to: m.phone,
      templateId: await str(s, 'HUAWEI_VERIFY_TEMPLATE_CODE'),
      templateParas: JSON.stringify([m.code]),
      signature: await str(s, 'HUAWEI_VERIFY_SIGN_NAME'),
    });
    const res = await fetch(`${base}/sms/batchSendSms/v1`, {
      method: 'POST',
      redirect: 'error',
      signal: timeout(),
      headers: {
        Authorization: 'WSSE realm="SDP",profile="UsernameToken",type="Appkey"',
        'X-WSSE': huaweiWsse(await str(s, 'HUAWEI_APP_KEY'), await s.secret('HUAWEI_APP_SECRET'), nonce, created),
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: form.toString(),
    });
    const body = await jsonOf(res);
    if (body.code !== '000000') throw new Error(String(body.description ?? body.code ?? `HTTP ${res.status}`));
  },
};

function fill(template: string, code: string, phone: string): string {
  return template.replaceAll('{code}', code).replaceAll('{phone_numbers}', phone).replaceAll('{phone}', phone);
}

export const custom: SmsBackend = {
  name: 'custom',
  async send(s, m) {
    const url = await str(s, 'CUSTOM_SMS_URL');
    if (!url) throw new Error('no gateway URL');
    const method = (await str(s, 'CUSTOM_SMS_REQUEST_METHOD')).toLowerCase() === 'get' ? 'GET' : 'POST';
    const params = ((await s.value('CUSTOM_SMS_API_PARAMS')) ?? {}) as Record<string, unknown>;
    const values = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, fill(String(v), m.code, m.phone)]));
    const target = new URL(url);
    const init: RequestInit = { method, signal: timeout(), redirect: 'error' };
    if (method === 'GET') for (const [k, v] of Object.entries(values)) target.searchParams.set(k, v);
    else {
      init.body = JSON.stringify(values);
      init.headers = { 'Content-Type': 'application/json' };
    }
    const res = await fetch(target, init);
    await res.arrayBuffer().catch(() => undefined);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
  },
};
