import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { RemoteRoot } from './remoteRoot.ts';

/**
 * The web file manager's server-side SFTP sessions: one RemoteRoot per page, found by a random id
 * and only for the user who opened it; closed after IDLE_MS without a request, when the page says
 * so, or when the app stops.
 */
export const IDLE_MS = 10 * 60_000;

interface WebSftp {
  id: string;
  userId: string;
  root: RemoteRoot;
  timer: NodeJS.Timeout;
}

const registries = new WeakMap<FastifyInstance, Map<string, WebSftp>>();

/** Made with the routes (hooks cannot be added once the app runs): the sessions end with the app. */
export function registerWebSftpSessions(app: FastifyInstance): void {
  const sessions = new Map<string, WebSftp>();
  registries.set(app, sessions);
  app.addHook('onClose', async () => {
    await Promise.all([...sessions.keys()].map((id) => closeWebSftp(app, id)));
  });
}

function registry(app: FastifyInstance): Map<string, WebSftp> {
  const r = registries.get(app);
  if (!r) throw new Error('the web SFTP sessions are not registered on this app');
  return r;
}

function arm(app: FastifyInstance, s: WebSftp, idleMs: number): void {
  clearTimeout(s.timer);
  s.timer = setTimeout(() => void closeWebSftp(app, s.id), idleMs);
  s.timer.unref();
}

export function addWebSftp(app: FastifyInstance, userId: string, root: RemoteRoot, idleMs = IDLE_MS): string {
  const s: WebSftp = { id: randomUUID(), userId, root, timer: setTimeout(() => undefined, 0) };
  registry(app).set(s.id, s);
  arm(app, s, idleMs);
  return s.id;
}

/** The session when it exists and belongs to the user (else undefined: someone else's is not found). */
export function webSftpOf(app: FastifyInstance, id: string, userId: string, idleMs = IDLE_MS): RemoteRoot | undefined {
  const s = registry(app).get(id);
  if (!s || s.userId !== userId) return undefined;
  arm(app, s, idleMs);
  return s.root;
}

export async function closeWebSftp(app: FastifyInstance, id: string): Promise<void> {
  const r = registry(app);
  const s = r.get(id);
  if (!s) return;
  r.delete(id);
  clearTimeout(s.timer);
  await s.root.close();
}
