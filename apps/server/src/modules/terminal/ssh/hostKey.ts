import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import ssh2 from 'ssh2';
import type { DB } from '../../../platform/db/schema.ts';
import type { SecretBox } from '../../../platform/crypto/secretBox.ts';

const NAME = 'ssh_host_ed25519_key';

/**
 * The native SSH server's host key: an Ed25519 key made once and kept in the database, sealed by
 * the secret box (`terminal_sharedkey`), so that every instance of a deployment presents the same
 * key (clients would warn of a changed host otherwise) and restarts keep it. A key an earlier
 * version kept in `DATA_DIR/ssh_host_ed25519_key` is adopted. Two instances starting at once keep
 * the first one's key (the insert does nothing when the row exists; both read the row back).
 */
export async function loadHostKey(db: Kysely<DB>, box: SecretBox, dataDir: string): Promise<string> {
  const read = () => db.selectFrom('terminal_sharedkey').select('value').where('name', '=', NAME).executeTakeFirst();
  const row = await read();
  if (row) return box.decrypt(row.value);
  const file = path.join(dataDir, NAME);
  const key = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ssh2.utils.generateKeyPairSync('ed25519').private;
  await db
    .insertInto('terminal_sharedkey')
    .values({ name: NAME, value: box.encrypt(key), date_created: new Date().toISOString() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  return box.decrypt((await read())!.value);
}
