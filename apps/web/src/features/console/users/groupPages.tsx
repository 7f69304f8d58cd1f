import { Link } from 'react-router';
import { DetailCard } from '../../../resource/DetailCard.tsx';
import type { CellFormatter } from '../../../resource/formatters.tsx';
import { ResourceList } from '../../../resource/ResourceList.tsx';
import { resourcePaths } from '../../../resource/resourcePaths.ts';
import type { ResourcePagesConfig } from '../../../resource/resourceRoute.tsx';
import { groupRoute } from './groupRoute.tsx';
import { groupFieldSpecs } from './fields.ts';
import { groupGrantedAssetsTab } from '../perms/grants/grantTabs.tsx';

/** A group's member count, linking to its members tab. */
const memberCount: CellFormatter = ({ row, value }) => (
  <Link to={`${row.id}?activeTab=GroupUser`}>{Array.isArray(value) ? value.length : 0}</Link>
);

const userPaths = resourcePaths('/console/users/users');

/** User groups: `/console/users/groups/` over `/api/v1/users/groups/`. */
export const groupPages: ResourcePagesConfig = {
  ...groupRoute,
  list: {
    name: 'UserGroupList',
    columns: ['name', 'users', 'comment'],
    columnsShow: { min: ['name', 'actions'] },
    columnsMeta: { users: { formatter: memberCount, width: 100 } },
  },
  form: {
    groups: [{ title: 'users.group.Basic', fields: ['name', 'users', 'comment'] }],
    fieldsMeta: groupFieldSpecs,
  },
  detail: {
    tabs: [
      {
        name: 'GroupInfo',
        title: 'users.tab.GroupInfo',
        render: (group, { meta }) => (
          <DetailCard title="users.card.basic" object={group} meta={meta} excludes={['users']} />
        ),
      },
      {
        name: 'GroupUser',
        title: 'users.tab.GroupUser',
        render: (group) => (
          <ResourceList
            url={`/api/v1/users/users/?group_id=${group.id}`}
            name="GroupUserList"
            paths={userPaths}
            columns={['name', 'username', 'email', 'is_valid']}
            columnsShow={{ min: ['name', 'actions'] }}
            headerActions={{ hasCreate: false, hasImport: false, hasBulkDelete: false }}
            rowActions={{ hasDelete: false, hasClone: false }}
          />
        ),
      },
      groupGrantedAssetsTab,
    ],
  },
};
