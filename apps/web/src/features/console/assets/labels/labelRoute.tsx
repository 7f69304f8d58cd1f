import { TagsOutlined } from '@ant-design/icons';
import type { ResourceRouteConfig } from '../../../../resource/resourceRoute.tsx';

/** Labels: `name` is not a link; the colour follows the name. */
export const labelRoute: ResourceRouteConfig = {
  path: 'labels',
  url: '/api/v1/assets/labels/',
  routeName: 'Label',
  titles: {
    list: 'assets.route.LabelList',
    create: 'assets.route.LabelCreate',
    update: 'assets.route.LabelUpdate',
    detail: 'assets.route.LabelDetail',
  },
  kind: 'assets.kind.Label',
  icon: <TagsOutlined />,
};
