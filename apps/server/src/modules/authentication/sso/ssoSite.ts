import type { FastifyRequest } from 'fastify';

/** SSO_TIMEOUT_MS: each request to a provider (discovery, token, userinfo) ends after it. */
export const SSO_TIMEOUT_SECONDS = 10;

/**
 * The URL a provider sends the browser back to: `path` under BASE_SITE_URL (or else SITE_URL), the
 * address registered with the provider. Not taken from the request's Host header, which a client
 * chooses.
 */
export async function siteUrl(req: FastifyRequest, path: string): Promise<string> {
  const { settings } = req.server.deps;
  const base = String((await settings.valueOf('BASE_SITE_URL')) || (await settings.valueOf('SITE_URL')));
  return new URL(path, base.endsWith('/') ? base : `${base}/`).toString();
}
