import { Card, Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { assetsApiPath } from '@gatehouse/contract';
import { formatterForType } from '../../../../resource/formatters.tsx';
import type { ResourceObject } from '../../../../resource/types.ts';
import { useResourceMeta } from '../../../../resource/useResourceMeta.ts';
import { useResourceObject } from '../../../../resource/useResourceObject.ts';

/** Fields every category shares (shown in the basic card). */
const COMMON = new Set([
  'id',
  'name',
  'address',
  'platform',
  'protocols',
  'nodes',
  'nodes_display',
  'domain',
  'labels',
  'is_active',
  'category',
  'type',
  'connectivity',
  'date_verified',
  'auto_config',
  'comment',
  'created_by',
  'date_created',
  'date_updated',
  'org_id',
  'org_name',
]);
/** Shown in cards of their own. */
const OWN_CARD = new Set(['gathered_info', 'custom_info', 'script']);

function InfoCard({ title, info, testId }: { title: string; info: Record<string, unknown>; testId: string }) {
  const { t } = useTranslation();
  const entries = Object.entries(info ?? {});
  if (!entries.length) return null;
  return (
    <Card title={t(title)} data-testid={testId} style={{ marginTop: 16 }}>
      <Descriptions
        column={1}
        bordered
        size="small"
        styles={{ label: { width: 200 } }}
        items={entries.map(([k, v]) => ({
          key: k,
          label: k,
          children: v === null || v === '' ? '-' : typeof v === 'object' ? JSON.stringify(v) : String(v),
        }))}
      />
    </Card>
  );
}

/**
 * The category's own fields (`spec_info`: db_name, selectors, proxy…), `custom_info` and the host's
 * `gathered_info`, read from the category endpoint.
 */
export function SpecInfoCards({ asset }: { asset: ResourceObject }) {
  const { t, i18n } = useTranslation();
  const category = (asset.category as { value?: string } | undefined)?.value;
  const url = assetsApiPath(category ?? 'host');
  const meta = useResourceMeta(url);
  const full = useResourceObject(url, asset.id);
  const getMeta = meta.data?.actions?.GET ?? {};
  const obj = full.data;
  if (!obj) return null;
  const spec = Object.keys(getMeta).filter(
    (f) => !COMMON.has(f) && !OWN_CARD.has(f) && !getMeta[f]!.write_only && f in obj,
  );
  return (
    <>
      {spec.length > 0 && (
        <Card title={t('assets.card.spec')} data-testid="asset-spec-card" style={{ marginTop: 16 }}>
          <Descriptions
            column={1}
            bordered
            size="small"
            styles={{ label: { width: 200 } }}
            items={spec.map((f) => ({
              key: f,
              label: getMeta[f]?.label ?? f,
              children: formatterForType(getMeta[f])({
                row: obj,
                field: f,
                value: obj[f],
                meta: getMeta[f],
                lang: i18n.language,
                t,
              }),
            }))}
          />
        </Card>
      )}
      {'custom_info' in obj && (
        <InfoCard
          title="assets.card.custom"
          info={obj.custom_info as Record<string, unknown>}
          testId="asset-custom-card"
        />
      )}
      {'gathered_info' in obj && (
        <InfoCard
          title="assets.card.gathered"
          info={obj.gathered_info as Record<string, unknown>}
          testId="asset-gathered-card"
        />
      )}
    </>
  );
}
