import { DetailCard } from '../../../../resource/DetailCard.tsx';
import { ResourceList } from '../../../../resource/ResourceList.tsx';
import type { ResourcePagesConfig } from '../../../../resource/resourceRoute.tsx';
import { platformRoute } from './platformRoute.tsx';
import type { ResourceObject } from '../../../../resource/types.ts';
import { assetDetailPath } from '../categories.ts';
import { protocolTags } from '../detail/formatters.tsx';

const editable = (row: ResourceObject) => !row.internal;

/** Platforms: builtin ones are read-only (the server answers 403 "Internal platform"). */
export const platformPages: ResourcePagesConfig = {
  ...platformRoute,
  list: {
    name: 'PlatformList',
    columnsExclude: ['automation', 'custom_fields'],
    columnsShow: {
      default: ['name', 'category', 'type', 'internal', 'protocols', 'actions'],
      min: ['name', 'actions'],
    },
    columnsMeta: { protocols: { formatter: protocolTags } },
    headerActions: { hasBulkDelete: false },
    rowActions: { canUpdate: editable, canDelete: editable },
  },
  form: { groups: [] },
  detail: {
    canUpdate: editable,
    canDelete: editable,
    tabs: [
      {
        name: 'PlatformDetail',
        title: 'assets.tab.Detail',
        render: (platform, { meta }) => (
          <DetailCard
            title="assets.card.basic"
            object={platform}
            meta={meta}
            fields={[
              'id',
              'name',
              'category',
              'type',
              'charset',
              'internal',
              'protocols',
              'domain_enabled',
              'su_enabled',
              'su_method',
              'date_created',
              'date_updated',
              'created_by',
              'updated_by',
              'comment',
            ]}
            formatters={{ protocols: protocolTags }}
          />
        ),
      },
      {
        name: 'PlatformAssets',
        title: 'assets.tab.Assets',
        render: (platform) => (
          <ResourceList
            url={`/api/v1/assets/assets/?platform=${platform.id}`}
            name="PlatformAssetList"
            paths={null}
            detailPath={(row) => assetDetailPath(row.id)}
            columns={['name', 'address', 'platform', 'connectivity', 'is_active']}
            columnsShow={{ min: ['name'] }}
            headerActions={{ hasCreate: false, hasImport: false, hasExport: false, hasBulkDelete: false }}
            rowActions={{ hasUpdate: false, hasDelete: false, hasClone: false }}
          />
        ),
      },
    ],
  },
};
