import type { Profile } from '@gatehouse/contract';
import { useAppStore } from '../../../lib/appStore.ts';
import { http } from '../../../lib/http.ts';
import { count, ORG_COUNTS } from './orgCounts.ts';
import { OrgInfoCard } from './OrgInfoCard.tsx';
import { ResourceList } from '../../../resource/ResourceList.tsx';
import type { ResourcePagesConfig } from '../../../resource/resourceRoute.tsx';
import { orgRoute } from './orgRoute.tsx';

const countColumns = Object.fromEntries(
  ORG_COUNTS.map((k) => [k, { label: `settings.orgs.${k}`, formatter: count(k), width: 120 }]),
);

/** Refreshes the signed-in user's org lists, so the org selector offers a new or renamed org at once. */
async function refreshOrgs(): Promise<void> {
  const profile = await http.get<Profile>('/api/v1/users/profile/').catch(() => undefined);
  if (profile) useAppStore.getState().set({ profile });
}

const isInternal = (row: Record<string, unknown>) => row.internal === true;

/** Organisations (licensed): `/settings/orgs/` over `/api/v1/orgs/orgs/`. */
export const orgPages: ResourcePagesConfig = {
  ...orgRoute,
  list: {
    name: 'OrganizationList',
    columns: ['name', ...ORG_COUNTS, 'comment'],
    columnsExtra: [...ORG_COUNTS],
    columnsShow: { min: ['name', 'actions'] },
    columnsMeta: countColumns,
    headerActions: { hasImport: false, hasBulkDelete: false },
    rowActions: { hasClone: false, canDelete: (row) => !isInternal(row) },
  },
  form: {
    groups: [{ title: 'settings.orgs.basic', fields: ['name', 'comment'] }],
    successRoute: () => {
      void refreshOrgs();
      return '/settings/orgs/';
    },
  },
  detail: {
    canDelete: (org) => !isInternal(org),
    tabs: [
      {
        name: 'OrgInfo',
        title: 'settings.orgs.tabInfo',
        render: (org, { meta }) => <OrgInfoCard org={org} meta={meta} />,
      },
      {
        name: 'OrgUsers',
        title: 'settings.orgs.tabMembers',
        render: (org) => (
          <ResourceList
            url={`/api/v1/rbac/org-role-bindings/?oid=${org.id}`}
            name="OrgMemberList"
            paths={null}
            columns={['user', 'role', 'date_created']}
            columnsShow={{ min: ['user'] }}
            headerActions={{ hasCreate: false, hasImport: false, hasExport: false, hasBulkDelete: false }}
            rowActions={{ hasUpdate: false, hasClone: false, hasDelete: false }}
          />
        ),
      },
    ],
  },
};
