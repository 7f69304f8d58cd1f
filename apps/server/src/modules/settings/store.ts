import type { Kysely } from 'kysely';
import { toBool, type DB } from '../../platform/db/schema.ts';
import { GLOBAL_ORG_NAME } from '@gatehouse/contract';
import { SETTING_DEFAULTS, type SettingName, type SettingValue } from './defaults.ts';
import type { SecretBox } from '../../platform/crypto/secretBox.ts';

declare module '../../http/context.ts' {
  interface AppDeps {
    /** Settings, opened by `openDeps` (app.ts). */
    settings: SettingsStore;
  }
}

/** How long stored settings are trusted before re-reading (other instances may have written). */
const RELOAD_MS = 5_000;

/**
 * Settings: defaults overridden by rows of `settings_setting`, read through a short cache. Secret
 * settings (declared `secret` in the contract) are stored sealed with the secret box
 * (`encrypted` true, the value a JSON string `gh1$...`) and read only through `secret()`.
 */
export class SettingsStore {
  private values = new Map<string, unknown>();
  private sealed = new Map<string, string>();
  private loadedAt = 0;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly box?: SecretBox,
  ) {}

  private async refresh(): Promise<void> {
    if (Date.now() - this.loadedAt < RELOAD_MS) return;
    const rows = await this.db.selectFrom('settings_setting').select(['name', 'value', 'encrypted']).execute();
    const values = new Map<string, unknown>();
    const sealed = new Map<string, string>();
    for (const r of rows) {
      const v = JSON.parse(r.value) as unknown;
      if (!toBool(r.encrypted)) values.set(r.name, v);
      else if (typeof v === 'string') sealed.set(r.name, v);
    }
    this.values = values;
    this.sealed = sealed;
    this.loadedAt = Date.now();
  }

  /** A secret setting in clear text ('' when none is stored or it cannot be opened with this key). */
  async secret(name: string): Promise<string> {
    await this.refresh();
    const v = this.sealed.get(name);
    if (v === undefined || !this.box) return '';
    try {
      return this.box.decrypt(v);
    } catch {
      return '';
    }
  }

  async get<K extends SettingName>(name: K): Promise<SettingValue<K>> {
    await this.refresh();
    return (this.values.has(name) ? this.values.get(name) : SETTING_DEFAULTS[name]) as SettingValue<K>;
  }

  /**
   * The value as last read (at most RELOAD_MS old), without waiting: for code that cannot await
   * (a resource's `scope`) in a request whose identification has just read the settings.
   */
  cached<K extends SettingName>(name: K): SettingValue<K> {
    return (this.values.has(name) ? this.values.get(name) : SETTING_DEFAULTS[name]) as SettingValue<K>;
  }

  /** A setting named by a string (the settings API's declared fields): stored, else its default. */
  async valueOf(name: string): Promise<unknown> {
    await this.refresh();
    return this.values.has(name) ? this.values.get(name) : (SETTING_DEFAULTS as Record<string, unknown>)[name];
  }

  /** A stored setting that has no default (e.g. the licence). */
  async getRaw<T>(name: string): Promise<T | undefined> {
    await this.refresh();
    return this.values.get(name) as T | undefined;
  }

  async set(name: SettingName | string, value: unknown, category = 'default'): Promise<void> {
    const now = new Date().toISOString();
    await this.db
      .insertInto('settings_setting')
      .values({ name, value: JSON.stringify(value), category, encrypted: false, date_updated: now })
      .onConflict((oc) => oc.column('name').doUpdateSet({ value: JSON.stringify(value), category, date_updated: now }))
      .execute();
    this.loadedAt = 0;
  }

  /**
   * Several settings in one transaction (all or none), then seen at once by this instance; the
   * others read them within RELOAD_MS.
   */
  async setMany(
    values: Record<string, unknown>,
    category: string,
    secrets: ReadonlySet<string> = new Set(),
  ): Promise<void> {
    const now = new Date().toISOString();
    if (secrets.size > 0 && !this.box) throw new Error('secret settings need the secret box');
    await this.db.transaction().execute(async (trx) => {
      for (const [name, value] of Object.entries(values)) {
        const encrypted = secrets.has(name);
        const json = JSON.stringify(encrypted ? this.box!.encrypt(String(value)) : value);
        await trx
          .insertInto('settings_setting')
          .values({ name, value: json, category, encrypted, date_updated: now })
          .onConflict((oc) => oc.column('name').doUpdateSet({ value: json, category, encrypted, date_updated: now }))
          .execute();
      }
    });
    this.loadedAt = 0;
    await this.refresh();
  }

  async sessionAgeSeconds(): Promise<number> {
    return this.get('SESSION_COOKIE_AGE');
  }

  async globalOrgName(): Promise<string> {
    return (await this.get('GLOBAL_ORG_DISPLAY_NAME')) || GLOBAL_ORG_NAME;
  }
}
