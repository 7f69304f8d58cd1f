import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { SecretKeyError, type SecretBox } from './secretBox.ts';

const NAME = 'secret-box-check';
const PLAIN = 'gatehouse secret box';

/**
 * Every instance of a deployment must seal with the same key (`GATEHOUSE_SECRET_KEY`, or the same
 * `DATA_DIR/secret.key`): what one seals (account secrets, OTP seeds, storage keys, the SSH host
 * key) the others must open. The first instance seals a known text in `terminal_sharedkey`; an
 * instance whose key does not open it refuses to start, naming the setting, instead of failing
 * later on each secret (docs/deploy.md).
 */
export async function checkSharedSecretKey(db: Kysely<DB>, box: SecretBox): Promise<void> {
  await db
    .insertInto('terminal_sharedkey')
    .values({ name: NAME, value: box.encrypt(PLAIN), date_created: new Date().toISOString() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('terminal_sharedkey').select('value').where('name', '=', NAME).executeTakeFirst();
  let opened: string | undefined;
  try {
    opened = box.decrypt(row!.value);
  } catch {
    opened = undefined;
  }
  if (opened !== PLAIN)
    throw new SecretKeyError(
      'GATEHOUSE_SECRET_KEY',
      'does not open what this database was sealed with; give every instance the same key (or the same DATA_DIR/secret.key)',
    );
}
