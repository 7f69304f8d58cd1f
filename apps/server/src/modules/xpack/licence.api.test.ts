import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { generateOperatorKeys, issueLicence } from './licence.ts';

/** Licences (issue 6): self-issued on a fresh install, imported from an operator, refused when tampered. */
const operator = generateOperatorKeys();
let t: TestApp;
let admin: SessionClient;

beforeAll(async () => {
  t = await createTestApp({ GATEHOUSE_LICENSE_PUBLIC_KEY: Buffer.from(operator.publicPem).toString('base64') });
  admin = await adminClient(t.app);
});
afterAll(async () => t.close());

function upload(content: string) {
  const boundary = '----gh' + Math.random().toString(16).slice(2);
  const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="license.lic"\r\nContent-Type: text/plain\r\n\r\n${content}\r\n--${boundary}--\r\n`;
  return admin.request({
    method: 'POST',
    url: '/api/v1/xpack/license/import',
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
}

describe('licence', () => {
  it('is self-issued on a fresh install, so licensed features work from the start', async () => {
    const s = (await admin.get('/api/v1/settings/public/')).json();
    expect(s).toMatchObject({
      XPACK_ENABLED: true,
      XPACK_LICENSE_IS_VALID: true,
      XPACK_LICENSE_INFO: { corporation: 'Gatehouse', edition: 'Enterprise' },
    });
    const detail = (await admin.get('/api/v1/xpack/license/detail')).json();
    expect(detail).toMatchObject({ is_valid: true, corporation: 'Gatehouse', asset_count: 0, current_asset_count: 0 });
    const cats = (await admin.get('/api/v1/assets/categories/')).json();
    expect(
      cats.find((c: { value: string }) => c.value === 'database').types.map((x: { value: string }) => x.value),
    ).toContain('postgresql');
  });

  it("imports an operator's licence and reports it", async () => {
    const lic = issueLicence(operator.privatePem, {
      corporation: 'ACME Corp',
      edition: 'Enterprise',
      expired: '2099-12-31',
      asset_count: 500,
    });
    const res = await upload(lic);
    expect(res.statusCode).toBe(200);
    const detail = (await admin.get('/api/v1/xpack/license/detail')).json();
    expect(detail).toMatchObject({
      is_valid: true,
      corporation: 'ACME Corp',
      date_expired: '2099-12-31',
      asset_count: 500,
    });
  });

  it('accepts an expired licence but reports it invalid, which hides licensed types', async () => {
    const lic = issueLicence(operator.privatePem, {
      corporation: 'Old Corp',
      edition: 'Enterprise',
      expired: '2020-01-31',
      asset_count: 10,
    });
    expect((await upload(lic)).statusCode).toBe(200);
    const s = (await admin.get('/api/v1/settings/public/')).json();
    expect(s.XPACK_LICENSE_IS_VALID).toBe(false);
    expect(s.XPACK_LICENSE_INFO.date_expired).toBe('2020-01-31');
    const cats = (await admin.get('/api/v1/assets/categories/')).json();
    expect(
      cats.find((c: { value: string }) => c.value === 'database').types.map((x: { value: string }) => x.value),
    ).not.toContain('postgresql');
  });

  it('refuses a tampered licence and a file that is not a licence, keeping the current one', async () => {
    const good = issueLicence(operator.privatePem, {
      corporation: 'Honest Ltd',
      edition: 'Enterprise',
      expired: '2099-01-01',
      asset_count: 5,
    });
    const [p, body, sig] = good.split('.');
    const forged = Buffer.from(
      Buffer.from(body!, 'base64url').toString().replace('"asset_count":5', '"asset_count":50000'),
    ).toString('base64url');
    const res = await upload(`${p}.${forged}.${sig}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/signature is not valid/);
    const stranger = issueLicence(generateOperatorKeys().privatePem, {
      corporation: 'Stranger',
      edition: 'Enterprise',
      expired: '2099-01-01',
      asset_count: 5,
    });
    expect((await upload(stranger)).json().error).toMatch(/unknown issuer/);
    expect((await upload('hello')).json().error).toBe('This file is not a Gatehouse licence.');
    expect((await admin.get('/api/v1/xpack/license/detail')).json().corporation).toBe('Old Corp');
  });
});
