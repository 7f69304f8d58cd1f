import type { Bool } from '../schema.ts';

/** Applets, applet hosts, publications and deployments (migration 1600). */
export interface AppletTables {
  terminal_applet: {
    id: string;
    /** The manifest's name: a slug, unique; uploads of the same name replace it (`?update=1`). */
    name: string;
    display_name: string;
    version: string;
    author: string;
    /** general | web */
    type: string;
    /** community | enterprise */
    edition: string;
    is_active: Bool;
    builtin: Bool;
    can_concurrent: Bool;
    /** JSON list of protocol names. */
    protocols: string;
    /** JSON list of strings. */
    tags: string;
    comment: string;
    readme: string;
    /** sha256 of the package (hex). */
    digest: string;
    created_by: string;
    updated_by: string;
    date_created: string;
    date_updated: string;
  };
  terminal_appletpackage: {
    applet_id: string;
    /** icon.png, base64. */
    icon: string;
    /** The checked package, repacked as a zip (base64): what a host installs. */
    package: string;
  };
  terminal_applethost: {
    asset_id: string;
    /** JSON object: CORE_HOST, IGNORE_VERIFY_CERTS, RDS_* (appletHostFields.ts). */
    deploy_options: string;
    auto_create_accounts: Bool;
    accounts_create_amount: number;
    inited: Bool;
    date_inited: string | null;
    date_synced: string | null;
  };
  terminal_appletpublication: {
    id: string;
    applet_id: string;
    host_id: string;
    /** pending | success | failed */
    status: string;
    comment: string;
    date_created: string;
    date_updated: string;
  };
  terminal_applethostdeployment: {
    id: string;
    host_id: string;
    /** A deployment of the host itself (true) or an install of applets on it (false). */
    initial: Bool;
    /** pending | running | success | failed */
    status: string;
    /** The applet installed (NULL: every active applet) when not initial. */
    applet_id: string | null;
    comment: string;
    /** The job-engine execution (`ops_jobexecution.id`), also its task log's id. */
    task: string | null;
    date_start: string | null;
    date_finished: string | null;
    created_by: string;
    date_created: string;
    date_updated: string;
  };
}
