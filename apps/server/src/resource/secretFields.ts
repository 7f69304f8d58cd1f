import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Secret fields the console sends transport-encrypted (a field declared `encrypted`): the resource
 * framework decrypts them in one place, before any check or hook reads them, on every write route
 * (create, update, bulk, import). Plain text from API clients passes as it is. The decryption needs
 * the browser keys of the authentication module, which sits above this layer: it registers its
 * decoder at startup (`modules/index.ts`).
 */
export type SecretDecoder = (req: FastifyRequest, value: string, field: string) => Promise<string>;

const decoders = new WeakMap<FastifyInstance, SecretDecoder>();

export function registerSecretDecoder(app: FastifyInstance, decoder: SecretDecoder): void {
  decoders.set(app, decoder);
}

/** The value as typed; a value that is marked encrypted and does not decrypt is a 400 on its field. */
export async function decodeSecretField(req: FastifyRequest, value: unknown, field: string): Promise<unknown> {
  if (typeof value !== 'string' || !value) return value;
  const decoder = decoders.get(req.server);
  if (!decoder) throw new Error('No secret decoder registered: modules/index.ts registers it at startup');
  return decoder(req, value, field);
}
