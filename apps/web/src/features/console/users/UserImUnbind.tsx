import { useState } from 'react';
import { App, Button, Card, Descriptions, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../lib/appStore.ts';
import { http } from '../../../lib/http.ts';
import { errorMessage } from '../../../resource/errorMessage.ts';
import type { ResourceObject } from '../../../resource/types.ts';

/**
 * The user detail's quick actions for the company messengers: an administrator with
 * users.change_user unbinds the user's WeCom / DingTalk / FeiShu
 * (`POST /api/v1/authentication/<x>/qr/unbind/<id>/`, server: modules/users/imUnbind.ts). The
 * server asks for a fresh re-verification; the HTTP client opens the confirm dialog and sends the
 * call again, as for the profile's own unbinding (features/profile/ImBindings.tsx).
 */
const MESSENGERS = [
  { name: 'wecom', field: 'wecom_id', tab: 'tabWecom' },
  { name: 'dingtalk', field: 'dingtalk_id', tab: 'tabDingtalk' },
  { name: 'feishu', field: 'feishu_id', tab: 'tabFeishu' },
] as const;

export function UserImUnbind({ user, reload }: { user: ResourceObject; reload(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const canChange = useAppStore((s) => hasPermission(s.perms, 'users.change_user'));
  const [busy, setBusy] = useState<string | null>(null);
  if (!canChange) return null;

  const unbind = async (name: string) => {
    setBusy(name);
    try {
      const res = await http.post<{ msg: string }>(`/api/v1/authentication/${name}/qr/unbind/${String(user.id)}/`, {});
      void message.success(<span data-testid="user-im-unbind-result">{res.msg}</span>);
      reload();
    } catch (e) {
      void message.error(errorMessage(e, t));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card title={t('users.card.quickActions')} data-testid="user-quick-actions">
      <Descriptions
        column={1}
        size="small"
        items={MESSENGERS.map((m) => {
          const bound = typeof user[m.field] === 'string' && user[m.field] !== '' ? String(user[m.field]) : '';
          const name = t(`settings.ldap.${m.tab}`);
          return {
            key: m.name,
            label: name,
            children: (
              <Space>
                <Typography.Text type={bound ? undefined : 'secondary'}>
                  {bound || t('profile.im.notBound')}
                </Typography.Text>
                <Button
                  size="small"
                  disabled={!bound}
                  loading={busy === m.name}
                  onClick={() => void unbind(m.name)}
                  data-testid={`user-unbind-${m.name}`}
                >
                  {t('profile.im.unbind', { name })}
                </Button>
              </Space>
            ),
          };
        })}
      />
    </Card>
  );
}
