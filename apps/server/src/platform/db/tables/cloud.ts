import type { Bool } from '../schema.ts';

/** Cloud sync's tables (migration 1400, modules/cloud/). */
interface Common {
  comment: string;
  org_id: string;
  created_by: string;
  updated_by: string;
  date_created: string;
  date_updated: string;
}

export interface CloudTables {
  cloud_account: Common & {
    id: string;
    name: string;
    provider: string;
    /** JSON object of the provider's plain attributes. */
    attrs: string;
    /** The provider's secret attributes as JSON, sealed by the secret box ('' when none). */
    secret: string;
    validity: Bool;
    date_last_test: string | null;
  };
  cloud_strategy: Common & {
    id: string;
    name: string;
    priority: number;
    rule_relation: string;
    /** JSON list of `StrategyRule` (modules/cloud/strategy.ts). */
    rules: string;
    /** JSON list of `StrategyAction`. */
    actions: string;
  };
  cloud_synctask: Common & {
    id: string;
    name: string;
    account_id: string;
    /** JSON lists. */
    regions: string;
    nodes: string;
    hostname_strategy: string;
    protocols: string;
    platform_id: number | null;
    strategies: string;
    release_policy: string;
    is_periodic: Bool;
    interval: number;
    crontab: string;
    creator_id: string;
    date_last_sync: string | null;
  };
  cloud_syncinstance: {
    id: string;
    task_id: string;
    instance_id: string;
    region: string;
    name: string;
    address: string;
    asset_id: string | null;
    /** `present` or `released` (the provider no longer lists it). */
    status: string;
    last_execution_id: string;
    org_id: string;
    date_sync: string;
  };
  cloud_syncrecord: {
    id: string;
    execution_id: string;
    task_id: string;
    instance_id: string;
    name: string;
    address: string;
    /** created, updated, unchanged, released, skipped, failed. */
    action: string;
    reason: string;
    date_created: string;
  };
}
