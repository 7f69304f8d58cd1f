import { describe, expect, it, vi } from 'vitest';
import { encryptFields } from './secrets.ts';

vi.mock('../lib/crypto.ts', () => ({ encryptSecret: async (v: string) => `enc(${v})` }));

describe('encryptFields', () => {
  it('encrypts the named non-empty strings and leaves the rest', async () => {
    const body = { password: 'p', token: '', name: 'n' };
    expect(await encryptFields(body, ['password', 'token', 'private_key'])).toEqual({
      password: 'enc(p)',
      token: '',
      name: 'n',
    });
    expect(body.password).toBe('p');
  });

  it('reaches into each item of a list of objects with a dotted name (an asset and its accounts)', async () => {
    const body = {
      name: 'web',
      accounts: [
        { username: 'root', secret: 'Root-1', passphrase: '' },
        { username: 'deploy', secret_type: 'ssh_key', secret: 'KEY', passphrase: 'pp' },
        { id: 'a1' },
      ],
    };
    const out = await encryptFields(body, ['password', 'accounts.secret', 'accounts.passphrase']);
    expect(out).toEqual({
      name: 'web',
      accounts: [
        { username: 'root', secret: 'enc(Root-1)', passphrase: '' },
        { username: 'deploy', secret_type: 'ssh_key', secret: 'enc(KEY)', passphrase: 'enc(pp)' },
        { id: 'a1' },
      ],
    });
    expect(body.accounts[0]!.secret).toBe('Root-1');
    // A nested object, and a path that meets no object, are handled too.
    expect(await encryptFields({ cfg: { token: 't' }, accounts: 'x' }, ['cfg.token', 'accounts.secret'])).toEqual({
      cfg: { token: 'enc(t)' },
      accounts: 'x',
    });
  });
});
