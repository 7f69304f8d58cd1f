/** Where the job centre's pages live (`/workbench/ops/...`). */
export const OPS_BASE = '/workbench/ops';
export const playbookWorkspacePath = (id: string) => `${OPS_BASE}/playbook/${encodeURIComponent(id)}/workspace`;
