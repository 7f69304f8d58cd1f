import { useState } from 'react';
import { Button, Card, Col, Form, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../../lib/appStore.ts';
import { http } from '../../../../lib/http.ts';
import { ResourceList } from '../../../../resource/ResourceList.tsx';
import { resourcePaths } from '../../../../resource/resourcePaths.ts';
import type { FieldMetaMap, ResourceObject } from '../../../../resource/types.ts';
import { useAction } from '../../../../resource/useAction.ts';
import { AccountsField } from './AccountsField.tsx';
import { SPEC } from './permActions.ts';
import { ASSET_PERMISSIONS_URL } from './permRoute.ts';

const accountPaths = resourcePaths('/console/accounts/accounts');
/** The covered accounts' columns (the list answers no OPTIONS). */
const ACCOUNT_FIELDS: FieldMetaMap = {
  name: { type: 'string' },
  username: { type: 'string' },
  asset: { type: 'related_field' },
  secret_type: { type: 'labeled_choice' },
  privileged: { type: 'boolean' },
  is_active: { type: 'boolean' },
};

/** A permission's accounts: the accounts it covers on its assets, and its account choice edited in place. */
export function AccountsTab({ perm, reload }: { perm: ResourceObject; reload(): void }) {
  const { t } = useTranslation();
  const { run, busy } = useAction();
  const canChange = hasPermission(
    useAppStore((s) => s.perms),
    'perms.change_assetpermission',
  );
  const [form] = Form.useForm();
  const [listKey, setListKey] = useState(0);
  const initial = {
    accounts: perm.accounts,
    assets: perm.assets,
    nodes: perm.nodes,
  };
  return (
    <Row gutter={16}>
      <Col xs={24} lg={15}>
        <ResourceList
          key={listKey}
          url={`${ASSET_PERMISSIONS_URL}${perm.id}/accounts/`}
          name="AssetPermissionAccountList"
          paths={accountPaths}
          fieldsGet={ACCOUNT_FIELDS}
          columnsMeta={{
            ...Object.fromEntries(Object.keys(ACCOUNT_FIELDS).map((f) => [f, { label: `perms.account.field.${f}` }])),
            actions: { has: false },
          }}
          columnsShow={{ min: ['name'] }}
          noSelection
          headerActions={{ hasCreate: false, hasImport: false, hasBulkDelete: false }}
          rowActions={{ hasUpdate: false, hasDelete: false, hasClone: false }}
        />
      </Col>
      <Col xs={24} lg={9}>
        <Card title={t('perms.tab.accountsChoice')}>
          <Form form={form} layout="vertical" initialValues={initial} disabled={!canChange}>
            <Form.Item name="accounts" noStyle>
              <AccountsField />
            </Form.Item>
            <Form.Item name="assets" hidden />
            <Form.Item name="nodes" hidden />
            <Button
              type="primary"
              style={{ marginTop: 12 }}
              loading={busy}
              data-testid="perm-accounts-save"
              onClick={() =>
                void run(async () => {
                  const accounts = ((form.getFieldValue('accounts') as string[]) ?? []).filter((a) => a !== SPEC);
                  await http.patch(`${ASSET_PERMISSIONS_URL}${perm.id}/`, { accounts });
                  reload();
                  setListKey((k) => k + 1);
                }, t('perms.saved'))
              }
            >
              {t('resource.form.submit')}
            </Button>
          </Form>
        </Card>
      </Col>
    </Row>
  );
}
