import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';

/** Usernames as directories and JumpServer clients have them: `-`, `.`, `@` and any script's letters. */
let t: TestApp;
let admin: SessionClient;
const U = '/api/v1/users/users/';
const create = (username: string, headers: Record<string, string> = {}) =>
  admin.post(U, { name: username, username, email: `${Buffer.from(username).toString('hex')}@example.com` }, headers);

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
});
afterAll(async () => t.close());

describe('usernames', () => {
  it('accepts letters, digits, _ - . @ in any script', async () => {
    for (const username of ['sdk-user', 'john.doe', 'ops-bot', 'j.doe@corp.example', '张三', 'Ñandú']) {
      const res = await create(username);
      expect(res.statusCode, username).toBe(201);
      expect(res.json().username).toBe(username);
    }
    expect((await admin.get(`${U}?username=john.doe`)).json()).toHaveLength(1);
  });

  it('refuses spaces, control characters, emoji and other punctuation, in the request language', async () => {
    const refused = async (username: string, lang = 'en') => {
      const res = await create(username, { cookie: `${admin.jar.header()}; django_language=${lang}` });
      expect(res.statusCode, username).toBe(400);
      return res.json().username;
    };
    expect(await refused('john doe')).toEqual(['Spaces and control characters are not allowed']);
    expect(await refused('bell\u0007')).toEqual(['Spaces and control characters are not allowed']);
    expect(await refused('bot😀')).toEqual(['No special emoji allowed']);
    expect(await refused('a/b')).toEqual(['Only letters, digits and the characters _ - . @ are allowed']);
    expect(await refused('john doe', 'zh-hans')).toEqual(['不能包含空格或控制字符']);
    expect(await refused('bot😀', 'ja')).toEqual(['特殊な絵文字は使用できません']);
    expect(await refused('a:b', 'ja')).toEqual(['英数字と _ - . @ のみ使用できます']);
    // An update is held to the same rule.
    const [u] = (await admin.get(`${U}?username=ops-bot`)).json();
    const patch = await admin.request({ method: 'PATCH', url: `${U}${u.id}/`, payload: { username: 'ops bot' } });
    expect(patch.statusCode).toBe(400);
  });
});
