import { describe, expect, it } from 'vitest';
import { signV4 } from './sigv4.ts';

/** AWS's Signature Version 4 test suite, case "get-vanilla" (the documented example credentials). */
describe('SigV4', () => {
  it('signs the documented get-vanilla example', () => {
    const { authorization } = signV4({
      method: 'GET',
      host: 'example.amazonaws.com',
      path: '/',
      headers: {},
      body: '',
      region: 'us-east-1',
      service: 'service',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
      amzDate: '20150830T123600Z',
    });
    expect(authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    );
  });
});
