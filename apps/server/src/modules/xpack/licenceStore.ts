import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { type Language } from '@gatehouse/contract';
import type { DB } from '../../platform/db/schema.ts';
import type { AppDeps } from '../../http/context.ts';
import { checkLicence, daysLeft, generateOperatorKeys, issueLicence, type LicencePayload } from './licence.ts';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type xpackMessages from '../../platform/i18n/locales/en/xpack.json';
const M = catalogue<typeof xpackMessages>('xpack');

/** `xpack` sits below `settings` in the module order (eslint.layers.js): it names the store through AppDeps. */
type SettingsStore = AppDeps['settings'];

/**
 * Where licences live: the current licence in the settings table (`LICENSE`); trusted public keys
 * from `GATEHOUSE_LICENSE_PUBLIC_KEY` and this install's own key in `DATA_DIR/licence/`. A fresh
 * install creates that key pair and issues itself an Enterprise licence, so every feature works
 * from the first start.
 */
export const LICENCE_DIR = 'licence';
const SELF_YEARS = 10;

export const LICENCE_MSG = {
  format: M.format,
  signature: M.signature,
};

export interface LicenceState {
  valid: boolean;
  payload?: LicencePayload;
  expired?: boolean;
  daysLeft?: number;
}

function ownKeyFiles(dataDir: string) {
  const dir = path.join(dataDir, LICENCE_DIR);
  return {
    dir,
    priv: path.join(dir, 'operator.key'),
    pub: path.join(dir, 'operator.pub'),
    /** The deployment's self-issuing public key, copied from the database (`SHARED_PUB`). */
    shared: path.join(dir, 'deployment.pub'),
  };
}

/** `terminal_sharedkey` row of the public key whose self-issued licence the deployment uses. */
const SHARED_PUB = 'licence-operator-pub';

export function trustedKeys(dataDir: string, envKey: string | undefined): string[] {
  const keys: string[] = [];
  if (envKey) keys.push(envKey.includes('BEGIN') ? envKey : Buffer.from(envKey, 'base64').toString('utf8'));
  const { pub, shared } = ownKeyFiles(dataDir);
  for (const file of [pub, shared]) if (fs.existsSync(file)) keys.push(fs.readFileSync(file, 'utf8'));
  return keys;
}

/** Offers `pub` as the deployment's key (the first instance's wins) and answers the one that won. */
async function sharedPublicKey(db: Kysely<DB>, pub: string | undefined): Promise<string | undefined> {
  if (pub)
    await db
      .insertInto('terminal_sharedkey')
      .values({ name: SHARED_PUB, value: pub, date_created: new Date().toISOString() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  const row = await db
    .selectFrom('terminal_sharedkey')
    .select('value')
    .where('name', '=', SHARED_PUB)
    .executeTakeFirst();
  return row?.value;
}

/**
 * Creates this install's key pair and self-issued licence when none exists yet. Instances with
 * data folders of their own agree through the database: the first one's public key is kept there,
 * only that instance issues the licence, and every instance trusts that key (`deployment.pub`).
 */
export async function ensureSelfLicence(db: Kysely<DB>, settings: SettingsStore, dataDir: string): Promise<void> {
  const row = await db.selectFrom('settings_setting').select('name').where('name', '=', 'LICENSE').executeTakeFirst();
  const files = ownKeyFiles(dataDir);
  fs.mkdirSync(files.dir, { recursive: true, mode: 0o700 });
  if (!row && !fs.existsSync(files.priv)) {
    const keys = generateOperatorKeys();
    fs.writeFileSync(files.priv, keys.privatePem, { mode: 0o600 });
    fs.writeFileSync(files.pub, keys.publicPem, { mode: 0o644 });
  }
  const own = fs.existsSync(files.pub) ? fs.readFileSync(files.pub, 'utf8') : undefined;
  const shared = await sharedPublicKey(db, own);
  if (shared && shared !== own) fs.writeFileSync(files.shared, shared, { mode: 0o644 });
  if (row || !own || shared !== own) return;
  const expires = new Date();
  expires.setUTCFullYear(expires.getUTCFullYear() + SELF_YEARS);
  const licence = issueLicence(fs.readFileSync(files.priv, 'utf8'), {
    corporation: 'Gatehouse',
    edition: 'Enterprise',
    expired: expires.toISOString().slice(0, 10),
    asset_count: 0,
  });
  await settings.set('LICENSE', licence, 'license');
}

export async function licenceState(settings: SettingsStore, keys: string[]): Promise<LicenceState> {
  const text = await settings.getRaw<string>('LICENSE');
  if (!text) return { valid: false };
  const check = checkLicence(text, keys);
  if (!check.ok) return { valid: false };
  const left = daysLeft(check.payload);
  return { valid: left >= 0, payload: check.payload, expired: left < 0, daysLeft: left };
}

export function licenceError(reason: 'format' | 'signature', lang: Language): string {
  return LICENCE_MSG[reason][lang];
}
