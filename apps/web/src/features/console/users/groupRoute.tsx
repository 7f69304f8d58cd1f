import { TeamOutlined } from '@ant-design/icons';
import type { ResourceRouteConfig } from '../../../resource/resourceRoute.tsx';

/** User groups: `/console/users/groups/` over `/api/v1/users/groups/`. */
export const groupRoute: ResourceRouteConfig = {
  path: 'groups',
  url: '/api/v1/users/groups/',
  permissions: { resource: 'usergroup' },
  routeName: 'UserGroup',
  titles: {
    list: 'users.route.UserGroupList',
    create: 'users.route.UserGroupCreate',
    update: 'users.route.UserGroupUpdate',
    detail: 'users.route.UserGroupDetail',
  },
  kind: 'users.kind.UserGroup',
  icon: <TeamOutlined />,
};
