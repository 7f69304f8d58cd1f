import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { multipart, pngImage, type Part } from '../../../../test-support/images.ts';
import { makeUser, PASSWORD } from '../../../../test-support/perms.ts';
import { imageInfo } from './imageSize.ts';

/**
 * Settings › Interface: the login title, theme and images saved in one form, each image checked
 * from its bytes for type and exact size (a wrong size, an SVG with script, a file passed off as a
 * PNG, one too large: refused, nothing saved), served publicly and named by `public/open/`, and
 * restored to the built-in ones.
 */
let t: TestApp;
let admin: SessionClient;
const SETTING = '/api/v1/xpack/interface/setting/';

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
});
afterAll(async () => t?.close());

const put = (client: SessionClient, parts: Part[], headers: Record<string, string> = {}) => {
  const { body, contentType } = multipart(parts);
  return client.request({
    method: 'PUT',
    url: SETTING,
    payload: body,
    headers: { 'content-type': contentType, ...headers },
  });
};
const png = (name: string, w: number, h: number) => ({
  name,
  filename: `${name}.png`,
  type: 'image/png',
  data: pngImage(w, h),
});
const open = async () => (await new SessionClient(t.app).get('/api/v1/settings/public/open/')).json().INTERFACE;

describe('interface settings', () => {
  it('reads the size of PNG, GIF, JPEG and ICO from their bytes, and nothing else', () => {
    expect(imageInfo(pngImage(185, 55))).toEqual({ type: 'image/png', width: 185, height: 55 });
    const gif = Buffer.from('GIF89a\x10\x00\x10\x00\x00\x00\x00', 'latin1');
    expect(imageInfo(gif)).toEqual({ type: 'image/gif', width: 16, height: 16 });
    const ico = Buffer.alloc(22);
    ico.writeUInt16LE(1, 2);
    ico.writeUInt16LE(1, 4);
    ico[6] = 16;
    ico[7] = 16;
    expect(imageInfo(ico)).toEqual({ type: 'image/x-icon', width: 16, height: 16 });
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0, 0, 0xff, 0xc0, 0x00, 0x11, 8, 0x00, 0x37, 0x00, 0xb9, 3, 0, 0, 0, 0,
    ]);
    expect(imageInfo(jpeg)).toEqual({ type: 'image/jpeg', width: 185, height: 55 });
    expect(
      imageInfo(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')),
    ).toBeUndefined();
  });

  it('saves the title, theme and images; the public settings and the image routes follow at once', async () => {
    const res = await put(admin, [
      { name: 'login_title', value: 'Acme Bastion' },
      { name: 'theme', value: 'classic_blue' },
      png('logo_index', 185, 55),
      png('logo_logout', 82, 82),
      png('favicon', 16, 16),
      png('login_image', 492, 472),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const iface = await open();
    expect(iface).toMatchObject({
      login_title: 'Acme Bastion',
      theme: 'classic_blue',
      theme_info: { colors: { '--color-primary': '#1890ff' } },
    });
    for (const name of ['logo_index', 'logo_logout', 'favicon', 'login_image']) {
      expect(iface[name]).toMatch(new RegExp(`^/api/v1/xpack/interface/images/${name}/\\?v=[0-9a-f]{16}$`));
      const img = await new SessionClient(t.app).get(iface[name]);
      expect(img.statusCode).toBe(200);
      expect(img.headers['content-type']).toBe('image/png');
      expect(img.headers['x-content-type-options']).toBe('nosniff');
    }
    const small = await new SessionClient(t.app).get('/api/v1/settings/logo/?size=small');
    expect(imageInfo(small.rawPayload)).toMatchObject({ width: 82, height: 82 });
    const large = await new SessionClient(t.app).get('/api/v1/settings/logo/?size=large');
    expect(imageInfo(large.rawPayload)).toMatchObject({ width: 185, height: 55 });
    expect((await admin.get(SETTING)).json()).toMatchObject({ login_title: 'Acme Bastion', theme: 'classic_blue' });
  });

  it('refuses a wrong size, an SVG, a disguised file, a huge image, an unknown theme: nothing saved', async () => {
    const before = await open();
    const wrongSize = await put(admin, [{ name: 'login_title', value: 'Changed' }, png('logo_index', 200, 55)]);
    expect(wrongSize.statusCode).toBe(400);
    expect(wrongSize.json().logo_index[0]).toBe('logo_index: the image must be 185×55 pixels; this one is 200×55.');
    const svg = await put(admin, [
      {
        name: 'favicon',
        filename: 'x.png',
        type: 'image/png',
        data: Buffer.from('<svg onload="alert(1)"><script>alert(1)</script></svg>'),
      },
    ]);
    expect(svg.json().favicon[0]).toMatch(/PNG, JPEG, GIF or ICO/);
    const huge = await put(admin, [
      {
        name: 'login_image',
        filename: 'big.png',
        type: 'image/png',
        data: Buffer.concat([pngImage(492, 472), Buffer.alloc(600 * 1024)]),
      },
    ]);
    expect(huge.statusCode).toBe(400);
    expect(huge.json().login_image[0]).toMatch(/larger than 512 KB/);
    const zh = await put(admin, [png('favicon', 32, 32)], { 'accept-language': 'zh-CN' });
    expect(zh.json().favicon[0]).toContain('16×16');
    expect((await put(admin, [{ name: 'theme', value: 'hacker' }])).statusCode).toBe(400);
    expect((await put(admin, [{ name: 'login_title', value: 'x'.repeat(65) }])).statusCode).toBe(400);
    expect(
      (await put(admin, [{ name: 'evil', filename: 'e.png', type: 'image/png', data: pngImage(16, 16) }])).statusCode,
    ).toBe(400);
    expect(await open()).toEqual(before);
  });

  it('restores the built-in interface', async () => {
    const res = await admin.request({ method: 'PUT', url: `${SETTING}restore/` });
    expect(res.statusCode).toBe(200);
    expect(await open()).toMatchObject({
      login_title: 'Gatehouse',
      theme: 'classic_green',
      logo_index: '/ui/logo-text.svg',
      favicon: '/ui/favicon.svg',
      login_image: '',
    });
    expect((await new SessionClient(t.app).get('/api/v1/xpack/interface/images/favicon/')).statusCode).toBe(404);
    const logo = await new SessionClient(t.app).get('/api/v1/settings/logo/?size=small');
    expect(logo.statusCode).toBe(302);
    expect(logo.headers.location).toBe('/ui/logo.svg');
  });

  it('is changed by holders of settings.change_interface only', async () => {
    await makeUser(admin, 'iface-user');
    const user = new SessionClient(t.app);
    expect((await user.login('iface-user', PASSWORD)).statusCode).toBe(200);
    expect((await put(user, [{ name: 'login_title', value: 'Mine' }])).statusCode).toBe(403);
    expect((await user.get('/api/v1/xpack/interface/images/../../etc/passwd')).statusCode).toBe(404);
  });
});
