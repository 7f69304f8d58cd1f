import { KeyOutlined } from '@ant-design/icons';
import type { ResourceRouteConfig } from '../../../resource/resourceRoute.tsx';
import { TEMPLATES } from './accountApi.ts';

/** Account templates: the route part (the page part, `templatePages.tsx`, loads with the pages). */
export const templateRoute: ResourceRouteConfig = {
  path: 'account-template',
  url: TEMPLATES,
  routeName: 'AccountTemplate',
  titles: {
    list: 'accounts.route.AccountTemplateList',
    create: 'accounts.route.AccountTemplateCreate',
    update: 'accounts.route.AccountTemplateUpdate',
    detail: 'accounts.route.AccountTemplateDetail',
  },
  kind: 'accounts.kind.AccountTemplate',
  icon: <KeyOutlined />,
};
