import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { can } from '../../http/permissions.ts';
import { readTaskLog, taskLogMeta } from './taskLog.ts';

/**
 * WebSocket `/ws/ops/tasks/log/`: signed in by the session cookie or a Bearer
 * token; anonymous callers are closed. The client sends `{"task": id, "type": "celery"}`; until the
 * log exists the server sends `{"message": ".", task}` every 0.5 s, then `{"message": "\r\n"}`, then
 * chunks of at most 4096 bytes (`\n` → `\r\n`), and `{"event": "end", task, "message": ""}` when the
 * task is over. The contract reads every 0.2 s; here a log that is flowing is read again after
 * 50 ms, backing off to 0.2 s while it is quiet, so a line reaches the browser well within 0.2 s
 * of being written (`npm run bench`, jobs). A task is visible to whoever started it and to holders of
 * `ops.view_taskmonitor`; another's task looks like one that does not exist.
 */
export const TASK_LOG_SOCKET_PATH = '/ws/ops/tasks/log/';
const WAIT_MS = 500;
/** Delay before the next read: short while lines flow, doubling up to the contract's 0.2 s when quiet. */
const FLOWING_MS = 50;
const QUIET_MS = 200;

async function visible(req: FastifyRequest, ownerId: string): Promise<boolean> {
  return ownerId === req.user?.id || (await can(req, 'ops.view_taskmonitor'));
}

function follow(app: FastifyInstance, socket: WebSocket, req: FastifyRequest, task: string): () => void {
  let stopped = false;
  let started = false;
  let line = 0;
  let delay = FLOWING_MS;
  const send = (data: Record<string, unknown>) =>
    socket.readyState === socket.OPEN && socket.send(JSON.stringify(data));
  const step = async () => {
    if (stopped) return;
    const meta = await taskLogMeta(app.deps.cache, task);
    if (!meta || !(await visible(req, meta.user_id))) {
      send({ message: '.', task });
      setTimeout(() => void step().catch(fail), WAIT_MS);
      return;
    }
    if (!started) {
      started = true;
      send({ message: '\r\n', task });
    }
    const chunk = await readTaskLog(app.deps.cache, task, line);
    line = chunk.next;
    if (chunk.text) send({ message: chunk.text.replace(/\r?\n/g, '\r\n'), task });
    if (chunk.ended) {
      send({ event: 'end', task, message: '' });
      stopped = true;
      return;
    }
    delay = chunk.text ? FLOWING_MS : Math.min(delay * 2, QUIET_MS);
    setTimeout(() => void step().catch(fail), delay);
  };
  const fail = (e: Error) => {
    app.log.warn({ err: e.message }, 'task log stream failed');
    stopped = true;
  };
  void step().catch(fail);
  return () => {
    stopped = true;
  };
}

export function registerTaskLogSocket(app: FastifyInstance): void {
  const open = new Set<WebSocket>();
  app.addHook('preClose', async () => {
    for (const s of open) s.terminate();
    open.clear();
  });
  app.get(TASK_LOG_SOCKET_PATH, { websocket: true, config: { public: true } }, (socket, req) => {
    if (!req.user) {
      socket.close(4001, 'not authenticated');
      return;
    }
    open.add(socket);
    let stop: (() => void) | undefined;
    socket.on('close', () => {
      stop?.();
      open.delete(socket);
    });
    socket.on('message', (raw) => {
      let task = '';
      try {
        const data = JSON.parse(String(raw)) as { task?: unknown };
        task = typeof data.task === 'string' ? data.task : '';
      } catch {
        task = '';
      }
      if (!task) return;
      stop?.();
      stop = follow(app, socket, req, task);
    });
  });
}
