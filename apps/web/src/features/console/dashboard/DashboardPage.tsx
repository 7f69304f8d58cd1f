import { Descriptions, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../../lib/appStore.ts';
import styles from './DashboardPage.module.css';

/** The console dashboard; its route needs rbac.view_console (`features/console/routes.tsx`). */
export function DashboardPage() {
  const { t } = useTranslation();
  const profile = useAppStore((s) => s.profile);
  const org = useAppStore((s) => s.currentOrg);
  if (!profile) return null;
  const roles = [...profile.system_roles, ...profile.org_roles];
  return (
    <div className={styles.card} data-testid="dashboard-welcome">
      <div className={styles.head}>
        <div className={styles.title}>{t('common.welcome', { name: profile.name })}</div>
      </div>
      <div className={styles.body}>
        <Descriptions column={1} size="small">
          <Descriptions.Item label={t('common.currentOrg')}>{org?.name}</Descriptions.Item>
          <Descriptions.Item label={t('common.roles')}>
            {roles.length ? roles.map((r) => <Tag key={r.id}>{r.display_name}</Tag>) : t('common.none')}
          </Descriptions.Item>
          <Descriptions.Item label={t('common.lastLogin')}>{profile.last_login ?? t('common.none')}</Descriptions.Item>
        </Descriptions>
      </div>
    </div>
  );
}
