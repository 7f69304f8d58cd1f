import { encryptSecret } from '../lib/crypto.ts';

/** Fields a form encrypts before sending (`encryptedFields`). */
export const ENCRYPTED_FIELDS = ['password', 'token', 'private_key'];
/** Secret-like import columns: masked on display, encrypted before sending. */
export const SECRET_COLUMNS = ['password', 'secret', 'private_key'];

type Body = Record<string, unknown>;
const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);

async function encryptPath(body: Body, path: readonly string[]): Promise<Body> {
  const [head, ...rest] = path;
  if (!head || !(head in body)) return body;
  const v = body[head];
  if (!rest.length) return typeof v === 'string' && v ? { ...body, [head]: await encryptSecret(v) } : body;
  // A nested object, or a list of them (an asset's `accounts`): each item's field.
  if (Array.isArray(v))
    return { ...body, [head]: await Promise.all(v.map((item) => (isObject(item) ? encryptPath(item, rest) : item))) };
  return isObject(v) ? { ...body, [head]: await encryptPath(v, rest) } : body;
}

/**
 * A copy of the body with each named non-empty string value encrypted. A dotted name reaches into a
 * nested object or into every item of a list of objects: `accounts.secret` encrypts the `secret` of
 * each account an asset is created with. The body itself is not changed.
 */
export async function encryptFields(body: Body, names: readonly string[]): Promise<Body> {
  let out = { ...body };
  for (const f of names) out = await encryptPath(out, f.split('.'));
  return out;
}
