import { useEffect, useState } from 'react';
import { Alert, Button, Card, Popconfirm, Switch, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { HttpError } from '../../lib/http.ts';
import { extractMessage } from '../../lib/httpErrors.ts';
import { useAppStore } from '../../lib/appStore.ts';
import {
  CONNECTION_TOKENS_KEY,
  expireConnectionToken,
  fetchConnectionTokens,
  setConnectionTokenReusable,
  type ConnectionToken,
} from './credentialsApi.ts';
import { useRun } from './useRun.ts';
import { countdown } from './countdown.ts';

/**
 * `/profile/connection-token`: the user's own live connection tokens (made when connecting to an
 * asset), each with the time it has left, ticking; expire ends one; the reusable switch shows only
 * when the site allows reusable tokens.
 */
export function ConnectionTokenPage() {
  const { t } = useTranslation();
  const tokens = useQuery({ queryKey: CONNECTION_TOKENS_KEY, queryFn: fetchConnectionTokens });
  const { busy, run } = useRun(CONNECTION_TOKENS_KEY);
  const reusableAllowed = Boolean(useAppStore((s) => s.publicSettings?.CONNECTION_TOKEN_REUSABLE));
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);

  const columns = [
    {
      title: t('profile.ct.id'),
      dataIndex: 'id',
      render: (v: string) => <Typography.Text copyable={{ text: v }}>{v.slice(0, 8)}</Typography.Text>,
    },
    { title: t('profile.ct.asset'), dataIndex: 'asset_display' },
    { title: t('profile.ct.account'), dataIndex: 'account' },
    { title: t('profile.ct.protocol'), dataIndex: 'protocol' },
    {
      title: t('profile.ct.expiresIn'),
      dataIndex: 'date_expired',
      render: (v: string) => {
        const left = Date.parse(v) - now;
        return left > 0 ? (
          <span data-testid="ct-countdown">{countdown(v, now)}</span>
        ) : (
          <Tag>{t('profile.ct.expired')}</Tag>
        );
      },
    },
    ...(reusableAllowed
      ? [
          {
            title: t('profile.ct.reusable'),
            dataIndex: 'is_reusable',
            render: (v: boolean, row: ConnectionToken) => (
              <Switch
                checked={v}
                disabled={busy}
                aria-label={t('profile.ct.reusable')}
                onChange={(on) => void run(() => setConnectionTokenReusable(row.id, on))}
              />
            ),
          },
        ]
      : []),
    {
      title: t('profile.key.actions'),
      key: 'actions',
      render: (_: unknown, row: ConnectionToken) => (
        <Popconfirm title={t('profile.ct.expireConfirm')} onConfirm={() => run(() => expireConnectionToken(row.id))}>
          <Button size="small" disabled={busy}>
            {t('profile.ct.expire')}
          </Button>
        </Popconfirm>
      ),
    },
  ];
  return (
    <Card data-testid="profile-connection-tokens" title={t('profile.route.connectionToken')}>
      <Typography.Paragraph type="secondary">{t('profile.ct.intro')}</Typography.Paragraph>
      {tokens.isError ? (
        <Alert
          type="error"
          showIcon
          title={extractMessage((tokens.error as HttpError).data) || t('session.error.unknown')}
        />
      ) : (
        <Table
          rowKey="id"
          size="middle"
          loading={tokens.isLoading}
          dataSource={tokens.data ?? []}
          columns={columns}
          pagination={false}
        />
      )}
    </Card>
  );
}
