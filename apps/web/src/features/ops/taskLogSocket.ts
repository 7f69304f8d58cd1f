/**
 * The task-log WebSocket of the JumpServer API: send `{task, type}`, receive `{message, task}`
 * chunks (already `\r\n`) and `{event: 'end'}` once the task is over.
 */
export const TASK_LOG_SOCKET_PATH = '/ws/ops/tasks/log/';

export function taskLogSocketUrl(loc: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}${TASK_LOG_SOCKET_PATH}`;
}

export interface TaskLogFrame {
  message?: string;
  event?: string;
  task?: string;
}

export interface TaskLogHandlers {
  onMessage(text: string): void;
  onEnd(): void;
  onError(): void;
}

/** Opens the socket for one task; returns the function that closes it. */
export function followTaskLog(task: string, type: string, h: TaskLogHandlers): () => void {
  const ws = new WebSocket(taskLogSocketUrl());
  let closing = false;
  ws.onopen = () => ws.send(JSON.stringify({ task, type }));
  ws.onmessage = (ev: MessageEvent) => {
    let frame: TaskLogFrame;
    try {
      frame = JSON.parse(String(ev.data)) as TaskLogFrame;
    } catch (e) {
      console.error('task-log socket: unreadable frame', e);
      return;
    }
    if (frame.task && frame.task !== task) return;
    if (frame.event === 'end') {
      closing = true;
      h.onEnd();
      ws.close();
      return;
    }
    if (frame.message) h.onMessage(frame.message);
  };
  ws.onerror = () => {
    if (!closing) h.onError();
  };
  return () => {
    closing = true;
    ws.close();
  };
}
