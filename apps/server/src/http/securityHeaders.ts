import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Headers every response carries (what helmet would set, kept to what Gatehouse needs):
 * - a CSP under which the console and the login page run: scripts only from this site (the built
 *   pages have no inline script), inline styles allowed because antd and its CSS-in-JS inject
 *   `<style>` elements at run time, images also as data:/blob: URLs (icons, previews), connections
 *   (fetch and the websockets) only to this site, and no framing of any page by anyone;
 * - no MIME sniffing, no referrer outside the site, HSTS once the request came over TLS;
 * - `Cache-Control: no-store` on API answers that did not set their own caching.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const HSTS = 'max-age=31536000';

/** Whether the request reached us over TLS (directly, or through a proxy named in TRUSTED_PROXIES). */
export function overTls(req: FastifyRequest): boolean {
  return req.protocol === 'https';
}

export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply) => {
    reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    reply.header('X-Frame-Options', 'DENY');
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'same-origin');
    if (overTls(req)) reply.header('Strict-Transport-Security', HSTS);
    if (req.url.startsWith('/api/') && !reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'no-store');
  });
}
