import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { SettingsStore } from '../../settings/store.ts';
import type { RemoteRoot } from './remoteRoot.ts';

/**
 * The web file manager's server-side SFTP sessions: one RemoteRoot per page, found by a random id
 * and only for the user who opened it; closed after `SECURITY_MAX_IDLE_TIME` minutes without a
 * request and at `SECURITY_MAX_SESSION_TIME` hours (0 = none, as the terminal's limits), when the
 * page says so, when the app stops, or when an administrator kills it (the entry then stays until
 * the page's next request, which learns why, or the idle limit).
 */
export interface WebSftpLimits {
  idleMs: number;
  maxMs: number;
}

interface WebSftp {
  id: string;
  userId: string;
  root: RemoteRoot;
  idleMs: number;
  timer?: NodeJS.Timeout;
  maxTimer?: NodeJS.Timeout;
}

/** How long a killed session's entry waits for the page to ask (and learn why) at most. */
const KILLED_KEEP_MS = 10 * 60_000;

const registries = new WeakMap<FastifyInstance, Map<string, WebSftp>>();

/** The limits in ms from the settings (the terminal's: idle in minutes, maximum in hours). */
export async function webSftpLimits(settings: SettingsStore): Promise<WebSftpLimits> {
  const n = async (key: 'SECURITY_MAX_IDLE_TIME' | 'SECURITY_MAX_SESSION_TIME') =>
    Math.max(0, Number((await settings.get(key)) ?? 0) || 0);
  return {
    idleMs: (await n('SECURITY_MAX_IDLE_TIME')) * 60_000,
    maxMs: (await n('SECURITY_MAX_SESSION_TIME')) * 3_600_000,
  };
}

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

function arm(app: FastifyInstance, s: WebSftp): void {
  clearTimeout(s.timer);
  if (!s.idleMs) return;
  s.timer = setTimeout(() => void closeWebSftp(app, s.id), s.idleMs);
  s.timer.unref();
}

export function addWebSftp(app: FastifyInstance, userId: string, root: RemoteRoot, limits: WebSftpLimits): string {
  const s: WebSftp = { id: randomUUID(), userId, root, idleMs: limits.idleMs };
  registry(app).set(s.id, s);
  arm(app, s);
  if (limits.maxMs) {
    s.maxTimer = setTimeout(() => void closeWebSftp(app, s.id), limits.maxMs);
    s.maxTimer.unref();
  }
  root.once('end', () => {
    if (!root.killed) return void closeWebSftp(app, s.id);
    clearTimeout(s.maxTimer);
    clearTimeout(s.timer);
    s.idleMs = 0;
    s.timer = setTimeout(() => void closeWebSftp(app, s.id), KILLED_KEEP_MS);
    s.timer.unref();
  });
  return s.id;
}

/**
 * The session when it exists and belongs to the user (else undefined: someone else's is not
 * found); a request counts as activity. A killed one is answered once more (so the page can say
 * why) and then forgotten.
 */
export function webSftpOf(app: FastifyInstance, id: string, userId: string): RemoteRoot | undefined {
  const s = registry(app).get(id);
  if (!s || s.userId !== userId) return undefined;
  if (s.root.isEnded) void closeWebSftp(app, id);
  else arm(app, s);
  return s.root;
}

export async function closeWebSftp(app: FastifyInstance, id: string): Promise<void> {
  const r = registry(app);
  const s = r.get(id);
  if (!s) return;
  r.delete(id);
  clearTimeout(s.timer);
  clearTimeout(s.maxTimer);
  await s.root.close();
}
