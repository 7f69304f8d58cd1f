import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../../http/errors.ts';
import { pageOfResults } from '../../../resource/pagination.ts';
import { tp } from './profileMessages.ts';

/**
 * Helpers for the profile's own-object routes (API keys, temporary passwords, passkeys,
 * connection tokens): every query is limited to the caller's rows, and an id of someone else's row
 * answers 404 like an id that does not exist.
 */

/** A user has few of these rows: the list is paginated in memory when `limit` is given, else a plain array. */
export function listOrPage<T>(req: FastifyRequest, rows: T[]): T[] | ReturnType<typeof pageOfResults<T>> {
  const q = req.query as { limit?: string; offset?: string };
  const limit = Number.parseInt(q.limit ?? '', 10);
  if (!Number.isFinite(limit) || limit <= 0) return rows;
  const offset = Math.max(0, Number.parseInt(q.offset ?? '0', 10) || 0);
  return pageOfResults(req, { limit, offset }, rows.length, rows.slice(offset, offset + limit));
}

export function notFound(req: FastifyRequest): ApiError {
  return new ApiError(404, { detail: tp(req.lang, 'not_found'), code: 'not_found' });
}

/** `is_active` and the like from JSON: a boolean, else a 400 on the field. */
export function booleanField(req: FastifyRequest, body: unknown, field: string): boolean | undefined {
  const value = (body as Record<string, unknown> | undefined)?.[field];
  if (value === undefined) return undefined;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 1) return true;
  if (value === 'false' || value === 0) return false;
  throw new ApiError(400, { [field]: [tp(req.lang, 'boolean_invalid')] });
}

/** The `id` path parameter, or 404 when it cannot be a uuid (no query with junk). */
export function idParam(req: FastifyRequest): string {
  const id = (req.params as { id?: string }).id ?? '';
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound(req);
  return id;
}
