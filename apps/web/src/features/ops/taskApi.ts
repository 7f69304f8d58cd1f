import { http } from '../../lib/http.ts';

/** `GET /api/v1/ops/celery/task/<id>/`: the state of a background task. */
export interface TaskState {
  id: string;
  name: string;
  state: 'PENDING' | 'STARTED' | 'SUCCESS' | 'FAILURE';
  total: number;
  done: number;
  date_start: string;
  date_finished: string | null;
}

export const fetchTaskState = (id: string) => http.get<TaskState>(`/api/v1/ops/celery/task/${encodeURIComponent(id)}/`);
