/** Playbooks (migration 1010); their files live under DATA_DIR/playbooks/<id>/. */
export interface PlaybookTables {
  ops_playbook: {
    id: string;
    name: string;
    /** The uploaded zip's file name ('' for a blank playbook). */
    path: string;
    /** `blank` (also for uploads) or `vcs` (not supported). */
    create_method: string;
    vcs_url: string;
    comment: string;
    creator_id: string;
    created_by: string;
    updated_by: string;
    date_created: string;
    date_updated: string;
    org_id: string;
  };
}
