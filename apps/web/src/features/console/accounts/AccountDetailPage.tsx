import { useState } from 'react';
import { Button, Card, Col, Row, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../lib/appStore.ts';
import { DetailCard } from '../../../resource/DetailCard.tsx';
import { ResourceDetail } from '../../../resource/ResourceDetail.tsx';
import { ResourcePathsContext, resourcePaths } from '../../../resource/resourcePaths.ts';
import type { ResourceObject } from '../../../resource/types.ts';
import { useAction } from '../../../resource/useAction.ts';
import { ConnectivityTag } from '../assets/detail/ConnectivityTag.tsx';
import { ACCOUNTS, clearSecrets, updateAccount } from './accountApi.ts';
import { SecretHistoryDialog, ViewSecretDialog } from './SecretDialog.tsx';
import { useAccountTest } from './useAccountActions.tsx';

const paths = resourcePaths('/console/accounts/accounts');
const assetName = ({ value }: { value: unknown }) => String((value as { name?: string } | null)?.name ?? '-');
const connectivity = ({ value }: { value: unknown }) => <ConnectivityTag value={value} testId="account-connectivity" />;

/** Quick actions of an account. */
function QuickActions({ account, reload }: { account: ResourceObject; reload(): void }) {
  const { t } = useTranslation();
  const held = useAppStore((s) => s.perms);
  const may = (p: string) => hasPermission(held, p);
  const [viewing, setViewing] = useState(false);
  const [history, setHistory] = useState(false);
  const action = useAction();
  const test = useAccountTest();
  return (
    <Card title={t('accounts.card.quickActions')}>
      <Space direction="vertical">
        {may('accounts.verify_account') && (
          <Button data-testid="account-test" onClick={() => void test([account.id], reload)}>
            {t('accounts.action.test')}
          </Button>
        )}
        {may('accounts.view_accountsecret') && (
          <Space>
            <Button data-testid="account-view-secret" onClick={() => setViewing(true)}>
              {t('accounts.action.viewSecret')}
            </Button>
            <Button data-testid="account-history" onClick={() => setHistory(true)}>
              {t('accounts.action.history')}
            </Button>
          </Space>
        )}
        {may('accounts.change_account') && (
          <Space>
            <Button
              loading={action.busy}
              onClick={() =>
                void action
                  .run(() => updateAccount(account.id, { privileged: !account.privileged }), t('accounts.saved'))
                  .then(reload)
              }
            >
              {t(account.privileged ? 'accounts.action.unprivilege' : 'accounts.action.privilege')}
            </Button>
            <Button
              danger
              onClick={() => void action.run(() => clearSecrets([account.id]), t('accounts.clear.done')).then(reload)}
            >
              {t('accounts.action.clearSecret')}
            </Button>
          </Space>
        )}
      </Space>
      <ViewSecretDialog account={viewing ? account : null} onClose={() => setViewing(false)} />
      <SecretHistoryDialog account={history ? account : null} onClose={() => setHistory(false)} />
    </Card>
  );
}

/** `/console/accounts/accounts/<id>`: the account's card and quick actions, and its activity. */
export function AccountDetailPage() {
  const { id } = useParams();
  return (
    <ResourcePathsContext.Provider value={paths}>
      <ResourceDetail
        key={id}
        url={ACCOUNTS}
        id={id!}
        kind="accounts.kind.Account"
        canUpdate={() => false}
        tabs={[
          {
            name: 'Detail',
            title: 'accounts.tab.detail',
            render: (obj, { meta, reload }) => (
              <Row gutter={16}>
                <Col xs={24} lg={14}>
                  <DetailCard
                    title="accounts.card.basic"
                    object={obj}
                    meta={meta}
                    fields={[
                      'id',
                      'name',
                      'username',
                      'asset',
                      'secret_type',
                      'has_secret',
                      'version',
                      'source',
                      'connectivity',
                      'date_verified',
                      'is_active',
                      'su_from',
                      'created_by',
                      'date_created',
                      'date_updated',
                      'comment',
                    ]}
                    formatters={{ asset: assetName, su_from: assetName, connectivity }}
                  />
                </Col>
                <Col xs={24} lg={10}>
                  <QuickActions account={obj} reload={reload} />
                </Col>
              </Row>
            ),
          },
        ]}
      />
    </ResourcePathsContext.Provider>
  );
}
