import { useState } from 'react';
import { Button, Card, Col, Form, Input, Modal, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { DetailCard } from '../../../resource/DetailCard.tsx';
import { ResourceList } from '../../../resource/ResourceList.tsx';
import { resourcePaths } from '../../../resource/resourcePaths.ts';
import type { ResourcePagesConfig } from '../../../resource/resourceRoute.tsx';
import type { ResourceObject } from '../../../resource/types.ts';
import { useAction } from '../../../resource/useAction.ts';
import { encryptFields } from '../../../resource/secrets.ts';
import { http } from '../../../lib/http.ts';
import { ACCOUNTS, SECRET_FIELDS, TEMPLATES } from './accountApi.ts';
import { ViewSecretDialog } from './SecretDialog.tsx';
import { templateRoute } from './templateRoute.tsx';

type Values = Record<string, unknown>;
const choiceOf = (v: unknown) => (v && typeof v === 'object' && 'value' in v ? (v as { value: unknown }).value : v);
const isRandom = (v: Values) => choiceOf(v.secret_strategy) === 'random';
const secretType = (v: Values) => choiceOf(v.secret_type) ?? 'password';

/** "Update secret" of a template: the new secret, written onto every account made from it. */
function UpdateSecret({ template, reload }: { template: ResourceObject; reload(): void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm();
  const action = useAction();
  const isKey = choiceOf(template.secret_type) === 'ssh_key';
  const save = async () => {
    const v = (await form.validateFields()) as Values;
    const ok = await action.run(
      async () =>
        http.patch(`${TEMPLATES}${template.id}/`, await encryptFields({ ...v, is_sync_account: true }, SECRET_FIELDS)),
      t('accounts.saved'),
    );
    if (ok) {
      setOpen(false);
      reload();
    }
  };
  return (
    <>
      <Button data-testid="template-update-secret" onClick={() => setOpen(true)}>
        {t('accounts.action.updateSecret')}
      </Button>
      <Modal
        open={open}
        title={t('accounts.action.updateSecret')}
        onCancel={() => setOpen(false)}
        onOk={() => void save()}
      >
        <Form form={form} layout="vertical">
          <Form.Item name="secret" label={t('accounts.field.secret')} rules={[{ required: true }]}>
            {isKey ? <Input.TextArea rows={6} /> : <Input.Password autoComplete="new-password" />}
          </Form.Item>
          {isKey && (
            <Form.Item name="passphrase" label={t('accounts.field.passphrase')}>
              <Input.Password autoComplete="new-password" />
            </Form.Item>
          )}
        </Form>
      </Modal>
    </>
  );
}

const accountPaths = resourcePaths('/console/accounts/accounts');

/** Account templates. */
export function templatePages(): ResourcePagesConfig {
  return {
    ...templateRoute,
    list: {
      name: 'AccountTemplateList',
      columnsExclude: ['spec_info', 'password_rules', 'push_params'],
      columnsShow: {
        default: ['name', 'username', 'secret_type', 'has_secret', 'privileged', 'actions'],
        min: ['name', 'actions'],
      },
      headerActions: { hasImport: false, hasExport: false },
    },
    form: {
      encryptedFields: [...SECRET_FIELDS],
      groups: [
        { title: 'accounts.group.basic', fields: ['name', 'username', 'privileged', 'su_from'] },
        {
          title: 'accounts.group.secret',
          fields: ['secret_type', 'secret_strategy', 'password_rules', 'secret', 'passphrase'],
        },
        { title: 'accounts.group.autoPush', fields: ['auto_push', 'platforms', 'push_params'] },
        { title: 'accounts.group.other', fields: ['is_active', 'comment'] },
      ],
      fieldsMeta: {
        su_from: { url: TEMPLATES },
        platforms: { url: '/api/v1/assets/platforms/' },
        secret: {
          widget: 'textarea',
          hidden: (v) => isRandom(v),
        },
        passphrase: { widget: 'password', hidden: (v) => secretType(v) !== 'ssh_key' || isRandom(v) },
        password_rules: { hidden: (v) => !isRandom(v) || secretType(v) !== 'password' },
        push_params: { hidden: (v) => !v.auto_push },
      },
    },
    detail: {
      tabs: [
        {
          name: 'AccountTemplateDetail',
          title: 'accounts.tab.detail',
          render: (tpl, { meta, reload }) => <TemplateDetail template={tpl} meta={meta} reload={reload} />,
        },
        {
          name: 'Accounts',
          title: 'accounts.tab.accounts',
          render: (tpl) => (
            <ResourceList
              url={ACCOUNTS}
              name="TemplateAccountList"
              paths={accountPaths}
              extraQuery={{ source_id: tpl.id }}
              columnsShow={{ default: ['name', 'asset', 'secret_type', 'is_active', 'date_created'], min: ['name'] }}
              columnsMeta={{
                asset: { formatter: ({ value }) => String((value as { name?: string } | null)?.name ?? '-') },
              }}
              headerActions={{ hasCreate: false, hasImport: false, hasExport: false, hasBulkDelete: false }}
              rowActions={{ hasUpdate: false, hasClone: false }}
            />
          ),
        },
      ],
    },
  };
}

function TemplateDetail({
  template,
  meta,
  reload,
}: {
  template: ResourceObject;
  meta: Parameters<typeof DetailCard>[0]['meta'];
  reload(): void;
}) {
  const { t } = useTranslation();
  const [viewing, setViewing] = useState(false);
  return (
    <Row gutter={16}>
      <Col xs={24} lg={14}>
        <DetailCard
          title="accounts.card.basic"
          object={template}
          meta={meta}
          fields={[
            'id',
            'name',
            'username',
            'secret_type',
            'secret_strategy',
            'has_secret',
            'privileged',
            'auto_push',
            'is_active',
            'created_by',
            'date_created',
            'date_updated',
            'comment',
          ]}
        />
      </Col>
      <Col xs={24} lg={10}>
        <Card title={t('accounts.card.quickActions')}>
          <Button style={{ marginRight: 8 }} onClick={() => setViewing(true)}>
            {t('accounts.action.viewSecret')}
          </Button>
          <UpdateSecret template={template} reload={reload} />
        </Card>
      </Col>
      <ViewSecretDialog account={viewing ? template : null} template onClose={() => setViewing(false)} />
    </Row>
  );
}
