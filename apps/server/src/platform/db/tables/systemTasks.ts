import type { Bool } from '../schema.ts';

/** Gatehouse's own tasks (migration 1220, modules/ops/tasks/). */
export interface SystemTaskTables {
  ops_taskexecution: {
    id: string;
    task_name: string;
    /** schedule | manual | start */
    trigger: string;
    creator_id: string | null;
    /** running | success | failure */
    state: string;
    date_start: string;
    date_finished: string | null;
    time_cost: number;
    /** JSON object. */
    result: string;
    error: string;
  };
  ops_periodictask: {
    name: string;
    enabled: Bool;
    date_updated: string;
  };
}
