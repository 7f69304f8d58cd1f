import { useTranslation } from 'react-i18next';
import { DetailCard } from '../../../resource/DetailCard.tsx';
import type { FieldMetaMap, ResourceObject } from '../../../resource/types.ts';
import { count, ORG_COUNTS } from './orgCounts.ts';

/** An organisation's fields with its member and resource counts. */
export function OrgInfoCard({ org, meta }: { org: ResourceObject; meta: FieldMetaMap }) {
  const { t } = useTranslation();
  const counts: FieldMetaMap = Object.fromEntries(
    ORG_COUNTS.map((k) => [k, { type: 'integer', label: t(`settings.orgs.${k}`) }]),
  );
  return (
    <DetailCard
      title="settings.orgs.basic"
      object={org}
      meta={{ ...meta, ...counts }}
      fields={['id', 'name', ...ORG_COUNTS, 'is_default', 'internal', 'created_by', 'date_created', 'comment']}
      formatters={Object.fromEntries(ORG_COUNTS.map((k) => [k, count(k)]))}
    />
  );
}
