import type { FastifyRequest } from 'fastify';

/**
 * DRF's paginated shape: `{count, next, previous, results}` with absolute
 * next/previous URLs built from the request, `limit`/`offset` replaced. Used by every paginated
 * list, resource-framework or hand-written.
 */
export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

function pageUrl(req: FastifyRequest, limit: number, offset: number): string {
  const u = new URL(req.url, `${req.protocol}://${req.host}`);
  u.searchParams.set('limit', String(limit));
  if (offset > 0) u.searchParams.set('offset', String(offset));
  else u.searchParams.delete('offset');
  return u.toString();
}

export function pageOfResults<T>(
  req: FastifyRequest,
  page: { limit: number; offset: number },
  count: number,
  results: T[],
): Page<T> {
  return {
    count,
    next: page.offset + page.limit < count ? pageUrl(req, page.limit, page.offset + page.limit) : null,
    previous: page.offset > 0 ? pageUrl(req, page.limit, Math.max(0, page.offset - page.limit)) : null,
    results,
  };
}
