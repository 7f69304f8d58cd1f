import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { GLOBAL_ORG_NAME } from '@gatehouse/contract';
import { SETTING_DEFAULTS, type SettingName, type SettingValue } from './defaults.ts';

declare module '../../http/context.ts' {
  interface AppDeps {
    /** Settings, opened by `openDeps` (app.ts). */
    settings: SettingsStore;
  }
}

/** How long stored settings are trusted before re-reading (other instances may have written). */
const RELOAD_MS = 5_000;

/** Settings: defaults overridden by rows of `settings_setting`, read through a short cache. */
export class SettingsStore {
  private values = new Map<string, unknown>();
  private loadedAt = 0;

  constructor(private readonly db: Kysely<DB>) {}

  private async refresh(): Promise<void> {
    if (Date.now() - this.loadedAt < RELOAD_MS) return;
    const rows = await this.db
      .selectFrom('settings_setting')
      .select(['name', 'value'])
      .where('encrypted', '=', false)
      .execute();
    this.values = new Map(rows.map((r) => [r.name, JSON.parse(r.value) as unknown]));
    this.loadedAt = Date.now();
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
  async setMany(values: Record<string, unknown>, category: string): Promise<void> {
    const now = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      for (const [name, value] of Object.entries(values)) {
        const json = JSON.stringify(value);
        await trx
          .insertInto('settings_setting')
          .values({ name, value: json, category, encrypted: false, date_updated: now })
          .onConflict((oc) => oc.column('name').doUpdateSet({ value: json, category, date_updated: now }))
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
