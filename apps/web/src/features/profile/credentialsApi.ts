import { http } from '../../lib/http.ts';

/** The calls of the profile's credential pages: API keys, temporary passwords, passkeys, connection tokens. */
export interface AccessKey {
  id: string;
  is_active: boolean;
  date_created: string;
  date_last_used: string | null;
  /** Only in the answer to creating the key. */
  secret?: string;
}

const KEYS_URL = '/api/v1/authentication/access-keys/';
export const ACCESS_KEYS_KEY = ['profile', 'access-keys'];
export const fetchAccessKeys = () => http.get<AccessKey[]>(KEYS_URL);
/** Needs a recent re-verification: the client asks for it and retries. */
export const createAccessKey = () => http.post<AccessKey & { secret: string }>(KEYS_URL, {});
export const setAccessKeyActive = (id: string, is_active: boolean) =>
  http.patch<AccessKey>(`${KEYS_URL}${id}/`, { is_active });
export const deleteAccessKey = (id: string) => http.delete<void>(`${KEYS_URL}${id}/`);

export interface TempToken {
  id: string;
  username: string;
  secret: string;
  verified: boolean;
  is_valid: boolean;
  date_created: string;
  date_verified: string | null;
  date_expired: string;
}

const TEMP_URL = '/api/v1/authentication/temp-tokens/';
export const TEMP_TOKENS_KEY = ['profile', 'temp-tokens'];
export const fetchTempTokens = () => http.get<TempToken[]>(TEMP_URL);
export const createTempToken = () => http.post<TempToken>(TEMP_URL, {});
export const expireTempToken = (id: string) => http.patch<void>(`${TEMP_URL}${id}/expire/`, {});

export interface Passkey {
  id: string;
  name: string;
  is_active: boolean;
  platform: string;
  created_by: string;
  date_last_used: string | null;
  date_created: string;
}

const PASSKEYS_URL = '/api/v1/authentication/passkeys/';
export const PASSKEYS_KEY = ['profile', 'passkeys'];
export const fetchPasskeys = () => http.get<Passkey[]>(PASSKEYS_URL);
export const setPasskeyActive = (id: string, is_active: boolean) =>
  http.patch<Passkey>(`${PASSKEYS_URL}${id}/`, { is_active });
export const deletePasskey = (id: string) => http.delete<void>(`${PASSKEYS_URL}${id}/`);

/**
 * Registers a passkey: creation options from the server (after a re-verification, which the
 * client asks for), the browser's authenticator makes the credential, the server verifies it.
 */
export async function registerPasskey(name: string): Promise<Passkey> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  const options = await http.get<Parameters<typeof startRegistration>[0]['optionsJSON']>(`${PASSKEYS_URL}register/`, {
    params: { name },
  });
  const answer = await startRegistration({ optionsJSON: options });
  return http.post<Passkey>(`${PASSKEYS_URL}register/`, answer);
}

export type PreferenceGroups = Record<string, Record<string, unknown>>;
const PREF_URL = '/api/v1/users/preference/';
export const preferenceKey = (category: string) => ['profile', 'preference', category];
export const fetchPreferences = (category: string) => http.get<PreferenceGroups>(PREF_URL, { params: { category } });
export const savePreferences = (category: string, groups: PreferenceGroups) =>
  http.patch<PreferenceGroups>(PREF_URL, groups, { params: { category } });

export interface ConnectionToken {
  id: string;
  asset: { id: string; name: string } | null;
  asset_display: string;
  account: string;
  protocol: string;
  connect_method: string;
  is_reusable: boolean;
  is_expired: boolean;
  date_expired: string;
  expire_time: number;
  org_name: string;
}

const CT_URL = '/api/v1/authentication/connection-token/';
export const CONNECTION_TOKENS_KEY = ['profile', 'connection-tokens'];
export const fetchConnectionTokens = () => http.get<ConnectionToken[]>(CT_URL);
export const expireConnectionToken = (id: string) => http.patch<void>(`${CT_URL}${id}/expire/`, {});
export const setConnectionTokenReusable = (id: string, is_reusable: boolean) =>
  http.patch<{ id: string; date_expired: string; is_reusable: boolean }>(`${CT_URL}${id}/reuse/`, { is_reusable });
