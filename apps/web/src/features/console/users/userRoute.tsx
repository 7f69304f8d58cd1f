import { UserOutlined } from '@ant-design/icons';
import type { ResourceRouteConfig } from '../../../resource/resourceRoute.tsx';

/** Users: `/console/users/users/` over `/api/v1/users/users/`. */
export const userRoute: ResourceRouteConfig = {
  path: 'users',
  url: '/api/v1/users/users/',
  routeName: 'User',
  titles: {
    list: 'users.route.UserList',
    create: 'users.route.UserCreate',
    update: 'users.route.UserUpdate',
    detail: 'users.route.UserDetail',
  },
  kind: 'users.kind.User',
  icon: <UserOutlined />,
};
