import { useQuery } from '@tanstack/react-query';
import { Card, Statistic } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../lib/appStore.ts';
import { http } from '../../../lib/http.ts';
import { errorMessage } from '../../../resource/errorMessage.ts';
import { grantUrls } from '../../console/perms/grants/grantedAssets.ts';

/** The workbench home's count of the assets granted to the user, linking to "My assets". */
export function GrantedAssetsCard() {
  const { t } = useTranslation();
  const may = hasPermission(
    useAppStore((s) => s.perms),
    'perms.view_myassets',
  );
  const q = useQuery({
    enabled: may,
    queryKey: ['workbench', 'granted-count'],
    queryFn: () => http.get<{ count: number }>(grantUrls({ user: 'self' }).assets, { params: { limit: '1' } }),
  });
  if (!may) return null;
  return (
    <Card
      title={t('workbench.home.myAssets')}
      data-testid="workbench-granted-card"
      extra={<Link to="/workbench/assets">{t('workbench.home.open')}</Link>}
    >
      {q.error ? (
        errorMessage(q.error, t)
      ) : (
        <Statistic title={t('workbench.home.grantedAssets')} value={q.data?.count ?? '-'} loading={q.isPending} />
      )}
    </Card>
  );
}
