import WebSocket from 'ws';
import { expect } from 'vitest';
import type { SessionClient } from './testApp.ts';
import { TASK_LOG_SOCKET_PATH } from '../src/modules/ops/taskLogSocket.ts';

/** Test helper: a client of the task-log socket. */

export interface TaskLogMessage {
  message?: string;
  event?: string;
  task?: string;
}

/** Opens the task-log socket, asks for a task and collects messages until the end (or a timeout). */
export async function collectTaskLog(
  base: string,
  headers: Record<string, string>,
  task: string,
  timeoutMs = 5000,
): Promise<{ messages: TaskLogMessage[]; closeCode?: number }> {
  const ws = new WebSocket(`${base}${TASK_LOG_SOCKET_PATH}`, { headers });
  const messages: TaskLogMessage[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      ws.close();
      resolve({ messages });
    }, timeoutMs);
    ws.on('open', () => ws.send(JSON.stringify({ task, type: 'celery' })));
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as TaskLogMessage;
      messages.push(m);
      if (m.event === 'end') {
        clearTimeout(timer);
        ws.close();
        resolve({ messages });
      }
    });
    ws.on('close', (code) => {
      clearTimeout(timer);
      resolve({ messages, closeCode: code });
    });
    ws.on('error', reject);
  });
}

/**
 * A background task's state once it has ended (`ops/celery/task/<id>/`: SUCCESS or FAILURE),
 * awaited with expect.poll rather than a loop of fixed sleeps.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answer
export async function taskEnded(client: SessionClient, task: string): Promise<Record<string, any>> {
  let last: { state?: string } = {};
  await expect
    .poll(async () => {
      last = (await client.get(`/api/v1/ops/celery/task/${task}/`)).json();
      return last.state === 'SUCCESS' || last.state === 'FAILURE';
    })
    .toBe(true);
  return last;
}
