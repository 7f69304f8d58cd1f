import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHostKey } from './hostKey.ts';

describe('the SSH server host key', () => {
  it('is made once, private to the owner, and kept across starts', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-hostkey-'));
    const first = loadHostKey(dir);
    expect(first).toContain('OPENSSH PRIVATE KEY');
    expect(fs.statSync(path.join(dir, 'ssh_host_ed25519_key')).mode & 0o777).toBe(0o600);
    expect(loadHostKey(dir)).toBe(first);
  });
});
