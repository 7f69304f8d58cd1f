import type { Cache } from '../../platform/cache/index.ts';

/**
 * Task logs: the output of a background task, line by line, in the cache
 * so every instance can stream it (Redis when REDIS_URL is set). A log has its owner (who may read
 * it besides holders of `ops.view_taskmonitor`), a line counter and one key per line, and an end
 * mark once the task is over. Any task writes through `openTaskLog(...)`.
 */
export const TASK_LOG_TTL = 24 * 3600;

const metaKey = (id: string) => `gh:tasklog:${id}:meta`;
const countKey = (id: string) => `gh:tasklog:${id}:n`;
const lineKey = (id: string, n: number) => `gh:tasklog:${id}:${n}`;

export interface TaskLogMeta {
  user_id: string;
  ended: boolean;
}

export interface TaskLogWriter {
  /** Appends one line (a trailing newline is added). */
  write(line: string): Promise<void>;
  /** Marks the log finished; readers stop after the last line. */
  end(): Promise<void>;
}

export async function openTaskLog(cache: Cache, taskId: string, userId: string): Promise<TaskLogWriter> {
  const meta: TaskLogMeta = { user_id: userId, ended: false };
  await cache.set(metaKey(taskId), meta, TASK_LOG_TTL);
  return {
    async write(line) {
      const n = await cache.incr(countKey(taskId), TASK_LOG_TTL);
      await cache.set(lineKey(taskId, n), `${line}\n`, TASK_LOG_TTL);
    },
    async end() {
      await cache.set(metaKey(taskId), { ...meta, ended: true }, TASK_LOG_TTL);
    },
  };
}

export function taskLogMeta(cache: Cache, taskId: string): Promise<TaskLogMeta | undefined> {
  return cache.get<TaskLogMeta>(metaKey(taskId));
}

export interface TaskLogChunk {
  text: string;
  /** The number of lines read so far (pass it back to read on). */
  next: number;
  ended: boolean;
}

/** The lines after `from`, at most `maxBytes` of them (at least one), and whether the log is over. */
export async function readTaskLog(cache: Cache, taskId: string, from: number, maxBytes = 4096): Promise<TaskLogChunk> {
  const meta = await taskLogMeta(cache, taskId);
  const count = (await cache.get<number>(countKey(taskId))) ?? 0;
  let text = '';
  let next = from;
  while (next < count) {
    const stored = await cache.get<string>(lineKey(taskId, next + 1));
    // Counted but not written yet (the writer is between `incr` and `set`): read it next time
    // rather than skip it. Once the log has ended every counted line was written (or expired).
    if (stored === undefined && !meta?.ended) break;
    const line = stored ?? '';
    if (text && text.length + line.length > maxBytes) break;
    text += line;
    next += 1;
  }
  return { text, next, ended: Boolean(meta?.ended) && next >= count };
}
