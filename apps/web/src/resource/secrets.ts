import { encryptSecret } from '../lib/crypto.ts';

/** Fields a form encrypts before sending (`encryptedFields`). */
export const ENCRYPTED_FIELDS = ['password', 'token', 'private_key'];
/** Secret-like import columns: masked on display, encrypted before sending. */
export const SECRET_COLUMNS = ['password', 'secret', 'private_key'];

/** A copy of the body with each named non-empty string value encrypted. */
export async function encryptFields(
  body: Record<string, unknown>,
  names: readonly string[],
): Promise<Record<string, unknown>> {
  const out = { ...body };
  for (const f of names) if (typeof out[f] === 'string' && out[f]) out[f] = await encryptSecret(out[f]);
  return out;
}
