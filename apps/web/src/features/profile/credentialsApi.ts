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
