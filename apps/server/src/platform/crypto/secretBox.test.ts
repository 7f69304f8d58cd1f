import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SECRET_KEY_FILE, openSecretBox } from './secretBox.ts';

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-secretbox-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('secret box (encryption at rest)', () => {
  it('creates a key file readable by the owner only, and keeps using it', () => {
    const dir = tmp();
    const box = openSecretBox(dir, undefined);
    const stat = fs.statSync(path.join(dir, SECRET_KEY_FILE));
    expect(stat.mode & 0o777).toBe(0o600);
    const sealed = box.encrypt('JBSWY3DPEHPK3PXP');
    expect(sealed).toMatch(/^gh1\$/);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(openSecretBox(dir, undefined).decrypt(sealed)).toBe('JBSWY3DPEHPK3PXP');
  });

  it('uses GATEHOUSE_SECRET_KEY when set, and refuses a short one', () => {
    const a = openSecretBox(tmp(), 'x'.repeat(40));
    const b = openSecretBox(tmp(), 'x'.repeat(40));
    expect(b.decrypt(a.encrypt('s3cret'))).toBe('s3cret');
    expect(() => openSecretBox(tmp(), 'short')).toThrow(/GATEHOUSE_SECRET_KEY: must be at least 32/);
  });

  it('refuses a value sealed with another key or altered', () => {
    const a = openSecretBox(tmp(), undefined);
    const b = openSecretBox(tmp(), undefined);
    const sealed = a.encrypt('value');
    expect(() => b.decrypt(sealed)).toThrow();
    const raw = Buffer.from(sealed.slice(4), 'base64');
    raw[14] = raw[14]! ^ 1;
    expect(() => a.decrypt(`gh1$${raw.toString('base64')}`)).toThrow();
    expect(() => a.decrypt('plain')).toThrow();
  });
});
