import { Link } from 'react-router';
import { App } from 'antd';
import { DetailCard } from '../../../../resource/DetailCard.tsx';
import type { CellFormatter } from '../../../../resource/formatters.tsx';
import { ResourceList } from '../../../../resource/ResourceList.tsx';
import type { ResourcePagesConfig } from '../../../../resource/resourceRoute.tsx';
import { domainRoute } from './domainRoute.tsx';
import type { ResourceObject } from '../../../../resource/types.ts';
import { http } from '../../../../lib/http.ts';
import { assetDetailPath } from '../categories.ts';
import { taskLogPath } from '../detail/useTaskResult.ts';
import { connectivity, protocolTags } from '../detail/formatters.tsx';
import { DomainAssetsField } from './DomainAssetsField.tsx';

const count = (v: unknown) => (Array.isArray(v) ? v.length : 0);
const assetCount: CellFormatter = ({ value }) => count(value);
const gatewayCount: CellFormatter = ({ row }) => (
  <Link to={`${row.id}?activeTab=GatewayList`}>{count(row.gateways)}</Link>
);

export const gatewayPaths = (domainId: string) => ({
  list: `/console/assets/domains/${domainId}?activeTab=GatewayList`,
  create: `/console/assets/gateways/create?domain=${domainId}`,
  update: (id: string) => `/console/assets/gateways/${id}/update?domain=${domainId}`,
  detail: assetDetailPath,
});

/** A domain's gateways (GatewayList tab), with their connection test. */
function GatewayList({ domain }: { domain: ResourceObject }) {
  const { message } = App.useApp();
  return (
    <ResourceList
      url={`/api/v1/assets/gateways/?domain=${domain.id}`}
      name="GatewayList"
      paths={gatewayPaths(domain.id)}
      permissions={{ app: 'assets', resource: 'gateway' }}
      columns={['name', 'address', 'protocols', 'nodes_display', 'connectivity', 'comment']}
      columnsShow={{ min: ['name', 'actions'] }}
      columnsMeta={{ protocols: { formatter: protocolTags }, connectivity: { formatter: connectivity } }}
      headerActions={{ hasImport: false, hasExport: false, hasBulkDelete: false }}
      rowActions={{
        hasClone: false,
        extra: [
          {
            name: 'test',
            title: 'assets.gateway.test',
            onClick: (row, reload) => {
              const tab = window.open('about:blank', '_blank');
              http
                .post<{ task: string }>(`/api/v1/assets/gateways/${row.id}/test-connective/`, {})
                .then(({ task }) => {
                  if (tab) tab.location.href = taskLogPath(task);
                  setTimeout(reload, 2000);
                })
                .catch((e: unknown) => {
                  tab?.close();
                  void message.error(e instanceof Error ? e.message : String(e));
                });
            },
          },
        ],
      }}
    />
  );
}

/** Domains. */
export const domainPages: ResourcePagesConfig = {
  ...domainRoute,
  list: {
    name: 'DomainList',
    columns: ['name', 'assets', 'gateways', 'comment'],
    columnsShow: { min: ['name', 'actions'] },
    columnsMeta: { assets: { formatter: assetCount, width: 100 }, gateways: { formatter: gatewayCount, width: 120 } },
  },
  form: {
    groups: [{ title: 'assets.group.Basic', fields: ['name', 'assets', 'comment'] }],
    fieldsMeta: { assets: { render: () => <DomainAssetsField /> } },
    afterGetFormValue: (values, object) => ({ ...values, assets: (object?.assets as unknown[] | undefined) ?? [] }),
    cleanValues: (values) => ({
      ...values,
      assets: ((values.assets as { id: string }[] | undefined) ?? []).map((a) => a.id),
    }),
  },
  detail: {
    tabs: [
      {
        name: 'DomainDetail',
        title: 'assets.tab.Detail',
        render: (domain, { meta }) => (
          <DetailCard
            title="assets.card.basic"
            object={domain}
            meta={meta}
            fields={['id', 'name', 'assets', 'gateways', 'date_created', 'comment']}
            formatters={{ assets: assetCount, gateways: ({ value }) => count(value) }}
          />
        ),
      },
      { name: 'GatewayList', title: 'assets.tab.GatewayList', render: (domain) => <GatewayList domain={domain} /> },
    ],
  },
};
