import { Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../../lib/appStore.ts';
import { http } from '../../../../lib/http.ts';
import type { ColumnOverride } from '../../../../resource/columns.ts';
import { RelationCard } from '../../../../resource/RelationCard.tsx';
import { ResourceList } from '../../../../resource/ResourceList.tsx';
import { useAction } from '../../../../resource/useAction.ts';
import type { OptionLabel } from '../../../../resource/RemoteSelect.tsx';
import type { FieldMetaMap, ResourceObject } from '../../../../resource/types.ts';
import { ASSET_PERMISSIONS_URL, RELATIONS, type RelationName } from './permRoute.ts';

/** One related set of a permission shown as a card: where its choices come from and how they read. */
export interface RelationSpec {
  name: RelationName;
  /** i18n key of the card title. */
  title: string;
  options: string;
  optionLabel?: OptionLabel;
}

export interface RelationsTabProps {
  perm: ResourceObject;
  reload(): void;
  /** The table of everything the permission reaches (`users/all/`, `assets/all/`). */
  list: { path: string; columns: string[]; labels: Record<string, string>; name: string };
  relations: RelationSpec[];
}

type Rel = { id: string; name?: string };

/** Adds to and removes from one relation of a permission through its relation collection. */
export const relationApi = (perm: string, name: RelationName) => {
  const r = RELATIONS[name];
  return {
    add: (ids: string[]) =>
      http.post(
        r.url,
        ids.map((id) => ({ [r.field]: id, assetpermission: perm })),
      ),
    remove: (id: string) => http.delete(r.url, { params: { assetpermission: perm, [r.field]: id } }),
  };
};

/**
 * A permission's "users and groups" or "assets and nodes" tab: the table of everything it reaches
 * (through groups and child nodes too) beside the cards that add and remove its direct members.
 */
export function RelationsTab({ perm, reload, list, relations }: RelationsTabProps) {
  const { t } = useTranslation();
  const { run } = useAction();
  const queryClient = useQueryClient();
  const canChange = hasPermission(
    useAppStore((s) => s.perms),
    'perms.change_assetpermission',
  );
  const listUrl = `${ASSET_PERMISSIONS_URL}${perm.id}/${list.path}`;
  const after = async () => {
    reload();
    await queryClient.invalidateQueries({ queryKey: ['resource-list', listUrl] });
  };
  const fieldsGet: FieldMetaMap = Object.fromEntries(list.columns.map((c) => [c, { type: 'string' }]));
  const columnsMeta: Record<string, ColumnOverride> = Object.fromEntries(
    Object.entries(list.labels).map(([c, label]) => [c, { label }]),
  );
  return (
    <Row gutter={16}>
      <Col xs={24} lg={15}>
        <ResourceList
          url={listUrl}
          name={list.name}
          paths={null}
          fieldsGet={fieldsGet}
          columns={list.columns}
          columnsMeta={{ ...columnsMeta, actions: { has: false } }}
          columnsShow={{ min: list.columns.slice(0, 1) }}
          noSelection
          headerActions={{ hasCreate: false, hasImport: false, hasExport: false, hasBulkDelete: false }}
          rowActions={{ hasUpdate: false, hasDelete: false, hasClone: false }}
        />
      </Col>
      <Col xs={24} lg={9}>
        {relations.map((r) => {
          const items = ((perm[r.name] as Rel[] | undefined) ?? []).map((x) => ({ id: x.id, label: x.name ?? x.id }));
          const api = relationApi(perm.id, r.name);
          return (
            <div key={r.name} style={{ marginBottom: 16 }}>
              <RelationCard
                title={r.title}
                testId={`perm-relation-${r.name}`}
                texts={{ add: 'perms.relation.add', remove: 'perms.relation.remove' }}
                url={r.options}
                optionLabel={r.optionLabel}
                disabled={!canChange}
                items={items}
                onAdd={async (ids) => {
                  if (await run(() => api.add(ids), t('perms.relation.added'))) await after();
                }}
                onRemove={async (id) => {
                  if (await run(() => api.remove(id), t('perms.relation.removed'))) await after();
                }}
              />
            </div>
          );
        })}
      </Col>
    </Row>
  );
}
