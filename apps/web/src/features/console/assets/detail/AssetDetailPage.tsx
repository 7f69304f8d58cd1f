import { useMemo } from 'react';
import { Col, Row, Tag } from 'antd';
import { useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../../lib/appStore.ts';
import { http } from '../../../../lib/http.ts';
import { DetailCard } from '../../../../resource/DetailCard.tsx';
import { RelationCard } from '../../../../resource/RelationCard.tsx';
import { ResourceDetail } from '../../../../resource/ResourceDetail.tsx';
import { ResourcePathsContext, type ResourcePaths } from '../../../../resource/resourcePaths.ts';
import type { ResourceObject } from '../../../../resource/types.ts';
import { useResourceObject } from '../../../../resource/useResourceObject.ts';
import { ASSET_LIST_PATH, assetDetailPath, assetUpdatePath } from '../categories.ts';
import { labelColour } from '../fields/labelParse.ts';
import { QuickActions } from './QuickActions.tsx';
import { SpecInfoCards } from './SpecInfoCard.tsx';
import { connectivity, protocolTags } from './formatters.tsx';
import { AccountTable } from '../../accounts/AccountTable.tsx';
import { assetAuthorisedUsersTab } from '../../perms/grants/grantTabs.tsx';

const URL = '/api/v1/assets/assets/';
type Rel = { id: string; name?: string; value?: string };
function DetailTab({
  asset,
  meta,
  reload,
}: {
  asset: ResourceObject;
  meta: Parameters<typeof DetailCard>[0]['meta'];
  reload(): void;
}) {
  const held = useAppStore((s) => s.perms);
  const canChange = hasPermission(held, 'assets.change_asset');
  const patch = async (body: Record<string, unknown>) => {
    await http.patch(`${URL}${asset.id}/`, body);
    reload();
  };
  const nodes = (asset.nodes as Rel[] | undefined) ?? [];
  const labels = (asset.labels as Rel[] | undefined) ?? [];
  return (
    <Row gutter={16}>
      <Col xs={24} lg={14}>
        <DetailCard
          title="assets.card.basic"
          object={asset}
          meta={meta}
          fields={[
            'id',
            'name',
            'category',
            'type',
            'address',
            'protocols',
            'domain',
            'platform',
            'connectivity',
            'is_active',
            'date_verified',
            'date_created',
            'created_by',
            'comment',
          ]}
          formatters={{ protocols: protocolTags, connectivity }}
        />
        <SpecInfoCards asset={asset} />
      </Col>
      <Col xs={24} lg={10}>
        <QuickActions asset={asset} reload={reload} />
        <div style={{ height: 16 }} />
        <RelationCard
          title="assets.card.nodes"
          testId="asset-nodes-card"
          texts={{ add: 'assets.relation.add', remove: 'assets.relation.remove' }}
          url="/api/v1/assets/nodes/"
          optionLabel={(o) => String(o.full_value ?? o.value)}
          disabled={!canChange}
          items={nodes.map((n) => ({ id: n.id, label: n.name ?? n.id }))}
          onAdd={(ids) => patch({ nodes: [...new Set([...nodes.map((n) => n.id), ...ids])] })}
          onRemove={(id) => patch({ nodes: nodes.map((n) => n.id).filter((x) => x !== id) })}
        />
        <div style={{ height: 16 }} />
        <RelationCard
          title="assets.card.labels"
          testId="asset-labels-card"
          texts={{ add: 'assets.relation.add', remove: 'assets.relation.remove' }}
          url="/api/v1/assets/labels/"
          optionLabel={(o) => `${String(o.name)}:${String(o.value)}`}
          disabled={!canChange}
          items={labels.map((l) => ({
            id: l.id,
            label: <Tag color={labelColour(String(l.name))}>{`${String(l.name)}:${String(l.value)}`}</Tag>,
          }))}
          onAdd={(ids) => patch({ labels: [...new Set([...labels.map((l) => l.id), ...ids])] })}
          onRemove={(id) => patch({ labels: labels.map((l) => l.id).filter((x) => x !== id) })}
        />
      </Col>
    </Row>
  );
}

/**
 * `/console/assets/assets/<id>`: the Detail tab and Activity;
 * Update opens the category's form with the platform in the query.
 */
export function AssetDetailPage() {
  const { id } = useParams();
  const queryClient = useQueryClient();
  const asset = useResourceObject(URL, id);
  const paths: ResourcePaths = useMemo(
    () => ({
      list: ASSET_LIST_PATH,
      create: ASSET_LIST_PATH,
      update: (x) => (asset.data ? assetUpdatePath(asset.data) : `${assetDetailPath(x)}/update`),
      detail: assetDetailPath,
    }),
    [asset.data],
  );
  return (
    <ResourcePathsContext.Provider value={paths}>
      <ResourceDetail
        key={id}
        url={URL}
        id={id!}
        kind="assets.kind.Asset"
        tabs={[
          {
            name: 'Detail',
            title: 'assets.tab.Detail',
            render: (obj, { meta, reload }) => (
              <DetailTab
                asset={obj}
                meta={meta}
                reload={() => {
                  reload();
                  void queryClient.invalidateQueries({ queryKey: ['resource-object'] });
                }}
              />
            ),
          },
          {
            name: 'Accounts',
            title: 'assets.tab.Accounts',
            hidden: () => !hasPermission(useAppStore.getState().perms, 'accounts.view_account'),
            render: (obj) => <AccountTable asset={{ id: obj.id, name: obj.name }} />,
          },
          assetAuthorisedUsersTab,
        ]}
      />
    </ResourcePathsContext.Provider>
  );
}
