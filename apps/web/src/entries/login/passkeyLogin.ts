import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { postJson, type LoginAnswer } from './loginApi.ts';

/**
 * Passkey sign-in on the login page, without any UI framework so any login page can call it:
 * asks the server for a challenge, lets the browser's authenticator answer it (the user picks a
 * passkey and unlocks it), posts the answer with the page's CSRF token and returns the
 * LoginResult (`{ok: true, next}` signs in; otherwise `msg` says why).
 */
export const PASSKEY_AUTH_URL = '/api/v1/authentication/passkeys/auth/';

export async function signInWithPasskey(next: string | null): Promise<LoginAnswer> {
  const res = await fetch(PASSKEY_AUTH_URL, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  const options = (await res.json()) as PublicKeyCredentialRequestOptionsJSON & { detail?: string };
  if (!res.ok) return { ok: false, error: 'passkey_disabled', msg: options.detail };
  const answer = await startAuthentication({ optionsJSON: options });
  return postJson<LoginAnswer>(PASSKEY_AUTH_URL, { ...answer, next });
}
