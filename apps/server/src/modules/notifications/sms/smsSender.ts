import type { SettingsStore } from '../../settings/store.ts';
import { cmpp2 } from './cmpp2.ts';
import { alibaba, custom, huawei, tencent } from './httpBackends.ts';
import type { SmsBackend, SmsSettings } from './smsConfig.ts';

/**
 * The one SMS sender (Messages › SMS): the backend `SMS_BACKEND` names sends a verification code
 * (the SMS sign-in step, `authentication/mfa/sms.ts`, and the settings' test button). SMS carries
 * codes only, as in the original: the providers send by templates that hold a code.
 */
export const SMS_BACKENDS: Record<SmsBackend['name'], SmsBackend> = { alibaba, tencent, huawei, cmpp2, custom };
export type SmsBackendName = SmsBackend['name'];

export const isSmsBackend = (s: string): s is SmsBackendName => Object.hasOwn(SMS_BACKENDS, s);

/** The stored settings, with `over` (a test's checked form values; an empty secret keeps the stored one). */
export function smsSettings(store: SettingsStore, over: Record<string, unknown> = {}): SmsSettings {
  return {
    value: async (name) => (name in over ? over[name] : store.valueOf(name)),
    secret: async (name) =>
      typeof over[name] === 'string' && over[name] ? (over[name] as string) : store.secret(name),
  };
}

export async function sendSmsCode(
  store: SettingsStore,
  phone: string,
  code: string,
  opts: { backend?: SmsBackendName; over?: Record<string, unknown> } = {},
): Promise<void> {
  const name = opts.backend ?? String(await store.valueOf('SMS_BACKEND'));
  if (!isSmsBackend(name)) throw new Error(`unknown SMS backend ${name}`);
  await SMS_BACKENDS[name].send(smsSettings(store, opts.over), { phone, code });
}
