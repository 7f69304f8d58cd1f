import { describe, expect, it } from 'vitest';
import { percentEncode, signRpc, stringToSign } from './aliyunSign.ts';

/** The signature example of Alibaba Cloud's ECS documentation ("Request signatures", DescribeRegions). */
const DOC = {
  Timestamp: '2016-02-23T12:46:24Z',
  Format: 'XML',
  AccessKeyId: 'testid',
  Action: 'DescribeRegions',
  SignatureMethod: 'HMAC-SHA1',
  SignatureNonce: '3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf',
  Version: '2014-05-26',
  SignatureVersion: '1.0',
};

describe('Alibaba Cloud RPC signature', () => {
  it('builds the documented string to sign and signature', () => {
    expect(stringToSign('GET', DOC)).toBe(
      'GET&%2F&AccessKeyId%3Dtestid%26Action%3DDescribeRegions%26Format%3DXML%26SignatureMethod%3DHMAC-SHA1' +
        '%26SignatureNonce%3D3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf%26SignatureVersion%3D1.0' +
        '%26Timestamp%3D2016-02-23T12%253A46%253A24Z%26Version%3D2014-05-26',
    );
    expect(signRpc('GET', DOC, 'testsecret')).toBe('OLeaidS1JvxuMvnyHOwuJ+uX5qY=');
  });

  it('encodes what encodeURIComponent leaves alone, and keeps the tilde', () => {
    expect(percentEncode("a b*c~d!'()/")).toBe('a%20b%2Ac~d%21%27%28%29%2F');
  });
});
