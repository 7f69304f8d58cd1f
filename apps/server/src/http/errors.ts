import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { t, type MessageKey } from './messages.ts';
import { bodyLimitOf } from './bodyLimits.ts';

/** An error that leaves in the contract's format. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(
      typeof body === 'object' && body && 'detail' in body
        ? String((body as { detail: unknown }).detail)
        : `HTTP ${statusCode}`,
    );
  }
}

export function notAuthenticated(req: FastifyRequest, key: MessageKey = 'not_authenticated'): ApiError {
  const code = key === 'not_authenticated' ? 'not_authenticated' : 'authentication_failed';
  return new ApiError(401, { detail: t(req.lang, key), code }, { 'WWW-Authenticate': 'Bearer realm="api"' });
}

export function permissionDenied(req: FastifyRequest, detail?: string): ApiError {
  return new ApiError(403, { detail: detail ?? t(req.lang, 'permission_denied'), code: 'permission_denied' });
}

/** 400 with a field dictionary: `{field: [messages]}`. */
export function validationError(fields: Record<string, string[] | unknown>): ApiError {
  return new ApiError(400, fields);
}

function isApiPath(url: string): boolean {
  return url.startsWith('/api/');
}

export function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | ApiError, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof ApiError) {
      return reply.code(err.statusCode).headers(err.headers).send(err.body);
    }
    const status = err.statusCode ?? 500;
    // Import uploads (render-to-json): a clear 400 for a file too large or of another type.
    if (req.url.includes('/render-to-json/') && err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(400).send({ error: t(req.lang, 'file_too_large') });
    }
    if (req.url.includes('/render-to-json/') && err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply
        .code(400)
        .send({ error: t(req.lang, 'file_type', { type: String(req.headers['content-type'] ?? '-').split(';')[0]! }) });
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const max = Math.floor(bodyLimitOf(req) / 1024);
      return reply.code(413).send({ detail: t(req.lang, 'body_too_large', { max }), code: 'body_too_large' });
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(415).send({
        detail: t(req.lang, 'unsupported_media', { type: String(req.headers['content-type'] ?? '') }),
        code: 'unsupported_media_type',
      });
    }
    if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (status === 400 && err instanceof SyntaxError)) {
      return reply.code(400).send({ detail: t(req.lang, 'invalid_json'), code: 'parse_error' });
    }
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ detail: err.message, code: err.code ?? 'error' });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ error: t(req.lang, 'server_error') });
  });

  app.setNotFoundHandler((req, reply) => {
    if (isApiPath(req.url)) return reply.code(404).send({ error: t(req.lang, 'not_found') });
    return reply
      .code(404)
      .type('text/html')
      .send(`<!doctype html><title>404</title><h1>${t(req.lang, 'not_found')}</h1>`);
  });
}
