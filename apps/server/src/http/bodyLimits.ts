import { Transform } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Body size by caller: LIMIT_BODY_BYTES for a signed-in caller (Fastify's bodyLimit, set in
 * app.ts), LIMIT_ANONYMOUS_BODY_BYTES, much smaller, before sign-in (login, password reset), so an
 * anonymous caller cannot make the server read and parse megabytes. Both answer 413 (errors.ts).
 * Import uploads (render-to-json) have their own limit (resource/importParse.ts).
 */
export function bodyLimitOf(req: FastifyRequest): number {
  const { limits } = req.server.deps.config;
  return req.user ? limits.bodyBytes : limits.anonymousBodyBytes;
}

function tooLarge(): Error {
  return Object.assign(new Error('Request body is too large'), {
    statusCode: 413,
    code: 'FST_ERR_CTP_BODY_TOO_LARGE',
  });
}

export function registerBodyLimits(app: FastifyInstance): void {
  app.addHook('preParsing', async (req, _reply, payload) => {
    if (req.user) return payload;
    const max = app.deps.config.limits.anonymousBodyBytes;
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > max) throw tooLarge();
    let seen = 0;
    // Chunked bodies declare no length: count what arrives.
    return payload.pipe(
      new Transform({
        transform(chunk: Buffer, _enc, done) {
          seen += chunk.length;
          done(seen > max ? tooLarge() : null, chunk);
        },
      }),
    );
  });
}
