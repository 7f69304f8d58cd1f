import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ssh2 from 'ssh2';
import { createTestApp, type TestApp } from '../../../../test-support/testApp.ts';
import { loadHostKey } from './hostKey.ts';

/** The native SSH server's host key: one per deployment, whatever data folder an instance has. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const folder = () => fs.mkdtempSync(path.join(os.tmpdir(), 'gh-hostkey-'));

describe('the SSH server host key', () => {
  it('is made once and presented the same by instances with data folders of their own, sealed at rest', async () => {
    const { db } = t.deps.database;
    await db.deleteFrom('terminal_sharedkey').execute();
    const [a, b] = await Promise.all([
      loadHostKey(db, t.deps.secretBox, folder()),
      loadHostKey(db, t.deps.secretBox, folder()),
    ]);
    expect(a).toContain('OPENSSH PRIVATE KEY');
    expect(b).toBe(a);
    expect(await loadHostKey(db, t.deps.secretBox, folder())).toBe(a);
    const row = await db.selectFrom('terminal_sharedkey').select('value').executeTakeFirstOrThrow();
    expect(row.value).not.toContain('PRIVATE KEY');
  });

  it('adopts the key an earlier version kept in the data folder', async () => {
    const { db } = t.deps.database;
    await db.deleteFrom('terminal_sharedkey').execute();
    const dir = folder();
    const old = ssh2.utils.generateKeyPairSync('ed25519').private;
    fs.writeFileSync(path.join(dir, 'ssh_host_ed25519_key'), old, { mode: 0o600 });
    expect(await loadHostKey(db, t.deps.secretBox, dir)).toBe(old);
    expect(await loadHostKey(db, t.deps.secretBox, folder())).toBe(old);
  });
});
