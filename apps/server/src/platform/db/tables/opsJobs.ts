import type { Generated } from 'kysely';
import type { Bool } from '../schema.ts';

/** The job centre's tables (migration 1000): ad-hoc commands, jobs, executions and their per-asset records. */
export interface OpsJobsTables {
  ops_adhoc: {
    id: string;
    name: string;
    module: string;
    args: string;
    comment: string;
    creator_id: string;
    created_by: string;
    date_created: string;
    date_updated: string;
    org_id: string;
  };
  ops_job: {
    id: string;
    name: string;
    instant: Bool;
    type: string;
    module: string;
    args: string;
    playbook_id: string | null;
    /** JSON list of asset ids. */
    assets: string;
    /** JSON list of node ids, `favorite`, `ungrouped`. */
    nodes: string;
    runas: string;
    runas_policy: string;
    use_parameter_define: Bool;
    /** JSON object `{name: {label, default, ...}}`. */
    parameters_define: string;
    timeout: number;
    chdir: string;
    comment: string;
    is_periodic: Bool;
    interval: number;
    crontab: string;
    creator_id: string;
    created_by: string;
    date_last_run: string | null;
    date_created: string;
    date_updated: string;
    org_id: string;
  };
  ops_jobexecution: {
    id: string;
    job_id: string;
    /** `pending`, `running`, `success`, `failed`, `timeout`. */
    status: string;
    /** `manual`, `schedule`. */
    trigger: string;
    parameters: string;
    material: string;
    job_type: string;
    /** JSON: what runs, frozen when the execution is created. */
    job_version: string;
    /** JSON: `{ok: [...], failed: [...], timeout: [...], skipped: [...]}` of asset names. */
    summary: string;
    instance_id: string | null;
    is_finished: Bool;
    is_success: Bool;
    time_cost: number;
    creator_id: string;
    created_by: string;
    date_created: string;
    date_start: string | null;
    date_finished: string | null;
    org_id: string;
  };
  ops_jobexecution_host: {
    id: string;
    execution_id: string;
    asset_id: string;
    asset: string;
    account: string;
    status: string;
    reason: string;
    output: string;
    exit_code: number | null;
    time_cost: Generated<number>;
    date_created: string;
  };
}
