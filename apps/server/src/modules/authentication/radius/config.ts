import type { SettingsStore } from '../../settings/store.ts';
import type { RadiusConfig } from './client.ts';

/** The RADIUS settings (Settings › Auth › Radius) as the client uses them. */
export async function loadRadiusConfig(settings: SettingsStore): Promise<RadiusConfig> {
  return {
    server: String(await settings.valueOf('RADIUS_SERVER')),
    port: Number(await settings.valueOf('RADIUS_PORT')) || 1812,
    secret: await settings.secret('RADIUS_SECRET'),
    timeoutMs: Math.max(1, Number(await settings.valueOf('RADIUS_TIMEOUT')) || 5) * 1000,
  };
}
