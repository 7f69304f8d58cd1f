import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LOGIN_PATH } from '@gatehouse/contract';
import { t } from './messages.ts';

/**
 * Serves the built console (apps/web/dist): hashed assets under /ui/assets/ cached for a year and
 * sent brotli- or gzip-compressed when the browser accepts it (compressed at build time),
 * every other /ui/ path answered with the app (browser-history routing), and the other HTML
 * entries (login page, the web terminal at /luna/) by name.
 */
export async function sendConsolePage(req: FastifyRequest, reply: FastifyReply, file: string): Promise<FastifyReply> {
  const full = path.join(req.server.deps.config.webDist, file);
  if (!fs.existsSync(full)) {
    return reply.code(503).type('text/plain; charset=utf-8').send(t(req.lang, 'console_not_built'));
  }
  return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(fs.createReadStream(full));
}

function existingFile(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined; // not a valid percent-encoding (`/ui/%25` arrives here as "%"): the app answers it
  }
  const rel = path.normalize(decoded).replace(/^([/\\])+/, '');
  if (!rel || rel.startsWith('..')) return undefined;
  const full = path.join(root, rel);
  if (!full.startsWith(root + path.sep)) return undefined;
  try {
    return fs.statSync(full).isFile() ? rel : undefined;
  } catch {
    return undefined;
  }
}

export async function registerConsole(app: FastifyInstance): Promise<void> {
  const root = app.deps.config.webDist;
  // preCompressed: the build writes .br/.gz beside each asset; a client that accepts them gets them.
  await app.register(fastifyStatic, { root, serve: false, decorateReply: true, preCompressed: true });

  app.get('/', { config: { public: true } }, async (_req, reply) => reply.redirect('/ui/'));
  app.get('/ui', { config: { public: true } }, async (_req, reply) => reply.redirect('/ui/'));
  app.get('/ui/*', { config: { public: true } }, async (req, reply) => {
    const rest = (req.params as { '*': string })['*'];
    const file = existingFile(root, rest.split('?')[0] ?? '');
    if (file && !file.endsWith('.html')) {
      const immutable = file.startsWith('assets/');
      return reply.sendFile(file, { immutable, maxAge: immutable ? 365 * 86400 * 1000 : 0, cacheControl: true });
    }
    return sendConsolePage(req, reply, 'index.html');
  });
  // The web terminal page (entry luna.html); signed out, the login page brings the user back here.
  const luna = async (req: FastifyRequest, reply: FastifyReply) => {
    if (!req.user) return reply.redirect(`${LOGIN_PATH}?next=${encodeURIComponent(req.url)}`);
    return sendConsolePage(req, reply, 'luna.html');
  };
  app.get('/luna', { config: { public: true } }, async (req, reply) =>
    reply.redirect(`/luna/${req.url.slice('/luna'.length)}`),
  );
  app.get('/luna/', { config: { public: true } }, luna);
  app.get('/luna/*', { config: { public: true } }, luna);
}
