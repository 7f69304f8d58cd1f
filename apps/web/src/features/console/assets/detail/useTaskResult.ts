import { http } from '../../../../lib/http.ts';

/** A background task's state (`GET /api/v1/ops/celery/task/<id>/`). */
export interface TaskState {
  id: string;
  state: 'PENDING' | 'STARTED' | 'SUCCESS' | 'FAILURE';
  results?: { asset: string; connectivity: string }[];
}

/** The page where a task's log is shown (built by the ops area). */
export const taskLogPath = (task: string) => `/ui/ops/celery/task/${task}/log/`;

/** Polls a task until it ends (at most `timeoutMs`). */
export async function waitForTask(task: string, timeoutMs = 60_000, everyMs = 500): Promise<TaskState> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const s = await http.get<TaskState>(`/api/v1/ops/celery/task/${task}/`);
    if (s.state === 'SUCCESS' || s.state === 'FAILURE' || Date.now() > until) return s;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
