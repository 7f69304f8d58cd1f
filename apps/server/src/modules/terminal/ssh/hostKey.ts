import fs from 'node:fs';
import path from 'node:path';
import ssh2 from 'ssh2';

/**
 * The native SSH server's host key: an Ed25519 key made at the first start and kept in
 * `DATA_DIR/ssh_host_ed25519_key` (mode 0600), so clients see the same key across restarts.
 */
export function loadHostKey(dataDir: string): string {
  const file = path.join(dataDir, 'ssh_host_ed25519_key');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8');
  const { private: key } = ssh2.utils.generateKeyPairSync('ed25519');
  fs.mkdirSync(dataDir, { recursive: true });
  // wx: two instances sharing DATA_DIR starting at once keep the first one's key.
  try {
    fs.writeFileSync(file, key, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return fs.readFileSync(file, 'utf8');
  }
  return key;
}
