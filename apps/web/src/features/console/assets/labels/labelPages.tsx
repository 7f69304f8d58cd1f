import { Tag } from 'antd';
import { DetailCard } from '../../../../resource/DetailCard.tsx';
import type { CellFormatter } from '../../../../resource/formatters.tsx';
import type { ResourcePagesConfig } from '../../../../resource/resourceRoute.tsx';
import { labelRoute } from './labelRoute.tsx';
import { labelColour } from '../fields/labelParse.ts';

/** The label as its coloured `name:value` tag. */
const colouredName: CellFormatter = ({ row }) => (
  <Tag color={labelColour(String(row.name))} data-testid="label-tag">{`${String(row.name)}:${String(row.value)}`}</Tag>
);
const assetNames: CellFormatter = ({ value }) =>
  Array.isArray(value) && value.length ? value.map((a: { name?: string }) => a.name).join(', ') : '-';

/** Labels: `name` is not a link; the colour follows the name. */
export const labelPages: ResourcePagesConfig = {
  ...labelRoute,
  list: {
    name: 'LabelList',
    columnsExclude: ['category', 'assets'],
    columnsShow: {
      default: ['name', 'value', 'asset_count', 'date_created', 'comment', 'actions'],
      min: ['name', 'actions'],
    },
    columnsMeta: { name: { formatter: colouredName } },
    detailPath: () => undefined,
  },
  form: {
    groups: [{ title: 'assets.group.Basic', fields: ['name', 'value', 'assets', 'is_active', 'comment'] }],
    fieldsMeta: {
      assets: { url: '/api/v1/assets/assets/', optionLabel: (o) => `${String(o.name)}(${String(o.address)})` },
    },
  },
  detail: {
    tabs: [
      {
        name: 'LabelDetail',
        title: 'assets.tab.Detail',
        render: (label, { meta }) => (
          <DetailCard
            title="assets.card.basic"
            object={label}
            meta={meta}
            fields={[
              'id',
              'name',
              'value',
              'category',
              'is_active',
              'asset_count',
              'assets',
              'date_created',
              'comment',
            ]}
            formatters={{ name: colouredName, assets: assetNames }}
          />
        ),
      },
    ],
  },
};
