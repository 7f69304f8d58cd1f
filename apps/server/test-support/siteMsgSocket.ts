import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { SITE_MSG_SOCKET_PATH } from '../src/modules/notifications/siteMessageSocket.ts';

/** A `ws` client on the site-message socket that queues what it receives. */
export interface SocketProbe {
  next(timeoutMs?: number): Promise<unknown>;
  close(): void;
  closed: Promise<number>;
}

export async function listenOnLoopback(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ host: '127.0.0.1', port: 0 });
  return `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

export async function openSiteMsgSocket(base: string, headers: Record<string, string>): Promise<SocketProbe> {
  const ws = new WebSocket(`${base}${SITE_MSG_SOCKET_PATH}`, { headers });
  const queue: unknown[] = [];
  const waiters: ((m: unknown) => void)[] = [];
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as unknown;
    const w = waiters.shift();
    if (w) w(m);
    else queue.push(m);
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    closed,
    close: () => ws.close(),
    next: (timeoutMs = 3000) =>
      queue.length
        ? Promise.resolve(queue.shift())
        : new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error('no message on the socket')), timeoutMs);
            waiters.push((m) => {
              clearTimeout(timer);
              resolve(m);
            });
          }),
  };
}
