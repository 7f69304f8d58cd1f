import { useEffect, useState } from 'react';
import { Alert, Form, Input, Modal, Select, Switch, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../lib/appStore.ts';
import { http } from '../../../lib/http.ts';
import { RemoteSelect } from '../../../resource/RemoteSelect.tsx';
import { useAction } from '../../../resource/useAction.ts';
import type { ResourceObject } from '../../../resource/types.ts';
import {
  ACCOUNTS,
  TEMPLATES,
  createAccount,
  createAccountsBulk,
  updateAccount,
  type BulkResult,
} from './accountApi.ts';

export const SECRET_TYPES = ['password', 'ssh_key', 'access_key', 'token', 'api_key'] as const;

export interface AccountDialogProps {
  open: boolean;
  /** The asset the account belongs to; without it the dialog creates on many assets (`bulk/`). */
  asset?: { id: string; name?: string };
  /** "Template add": the account comes from a template. */
  template?: boolean;
  /** The account being edited. */
  account?: ResourceObject | null;
  onClose(): void;
  onDone(): void;
}

const valueOf = (v: unknown) => (v && typeof v === 'object' && 'value' in v ? (v as { value: unknown }).value : v);

/**
 * The account dialog: with an asset, one account on it;
 * without, the same account on each chosen asset with a result per asset; on an account, its
 * changes (the username stays). Typing the name fills the username; root and administrator are
 * privileged by default.
 */
export function AccountDialog({ open, asset, template, account, onClose, onDone }: AccountDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const action = useAction({ inlineError: true });
  const [results, setResults] = useState<BulkResult[] | null>(null);
  const secretType = (Form.useWatch('secret_type', form) as string | undefined) ?? 'password';
  const editing = Boolean(account);
  // `su_from`: the other accounts of the same asset; the server answers none where the platform has no su.
  const suQuery = account ? { account: account.id } : asset ? { asset: asset.id } : null;
  const suFrom = useQuery({
    queryKey: ['su-from-accounts', suQuery],
    queryFn: () => http.get<ResourceObject[]>(`${ACCOUNTS}su-from-accounts/`, { params: suQuery! }),
    enabled: open && suQuery !== null && !template,
  });
  const suChoices = suFrom.data ?? [];

  useEffect(() => {
    if (!open) return;
    setResults(null);
    action.setError(null);
    form.resetFields();
    if (account)
      form.setFieldsValue({
        name: account.name,
        username: account.username,
        secret_type: valueOf(account.secret_type),
        privileged: account.privileged,
        is_active: account.is_active,
        comment: account.comment,
        su_from: (account.su_from as { id?: string } | null)?.id,
      });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reset when the dialog opens
  }, [open, account]);

  const mayPush = hasPermission(
    useAppStore((s) => s.perms),
    'accounts.push_account',
  );
  const pushing = Form.useWatch('push_now', form) === true;
  const submit = async () => {
    const v = (await form.validateFields()) as Record<string, unknown>;
    // Push now (the push automation): `params` carries its sudo choice; both only when asked.
    if (v.push_now) v.params = { sudo: Boolean(v.sudo) };
    else delete v.push_now;
    delete v.sudo;
    const body: Record<string, unknown> = Object.fromEntries(
      Object.entries(v).filter(([, x]) => x !== undefined && x !== ''),
    );
    // A cleared su_from on an edit is sent as null so the server drops it.
    if (account && 'su_from' in v && !v.su_from) body.su_from = null;
    await action.run(async () => {
      if (account) await updateAccount(account.id, body);
      else if (asset) await createAccount({ ...body, asset: asset.id });
      else {
        setResults(await createAccountsBulk(body));
        return;
      }
      onDone();
      onClose();
    });
  };

  if (results)
    return (
      <Modal
        open={open}
        title={t('accounts.bulk.results')}
        onCancel={() => {
          onDone();
          onClose();
        }}
        onOk={() => {
          onDone();
          onClose();
        }}
        cancelButtonProps={{ style: { display: 'none' } }}
      >
        <Table<BulkResult>
          rowKey="asset"
          size="small"
          pagination={false}
          data-testid="bulk-results"
          dataSource={results}
          columns={[
            { title: t('accounts.field.asset'), dataIndex: 'asset' },
            {
              title: t('accounts.bulk.state'),
              dataIndex: 'state',
              render: (s: string) => (
                <Tag color={s === 'error' ? 'red' : s === 'skipped' ? 'default' : 'green'}>
                  {t(`accounts.bulk.${s}`)}
                </Tag>
              ),
            },
            { title: t('accounts.bulk.error'), dataIndex: 'error' },
          ]}
        />
      </Modal>
    );

  const isKey = secretType === 'ssh_key';
  return (
    <Modal
      open={open}
      title={t(editing ? 'accounts.dialog.update' : template ? 'accounts.dialog.templateAdd' : 'accounts.dialog.add')}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={action.busy}
      width={640}
      destroyOnHidden
    >
      {action.error && <Alert type="error" message={action.error} style={{ marginBottom: 12 }} />}
      <Form
        form={form}
        layout="vertical"
        initialValues={{
          secret_type: 'password',
          privileged: false,
          is_active: true,
          on_invalid: asset ? 'error' : 'skip',
        }}
        onValuesChange={(changed: Record<string, unknown>) => {
          if (editing || !('name' in changed)) return;
          const name = String(changed.name ?? '');
          form.setFieldsValue({ username: name, privileged: ['root', 'administrator'].includes(name.toLowerCase()) });
        }}
      >
        {!asset && !editing && (
          <Form.Item name="assets" label={t('accounts.field.assets')} rules={[{ required: true }]}>
            <RemoteSelect
              url="/api/v1/assets/assets/"
              multiple
              optionLabel={(o) => `${String(o.name)}(${String(o.address)})`}
            />
          </Form.Item>
        )}
        {template && !editing ? (
          <>
            <Form.Item name="template" label={t('accounts.field.template')} rules={[{ required: true }]}>
              <RemoteSelect url={TEMPLATES} />
            </Form.Item>
            <Form.Item name="name" label={t('accounts.field.name')}>
              <Input />
            </Form.Item>
          </>
        ) : (
          <>
            <Form.Item name="name" label={t('accounts.field.name')}>
              <Input data-testid="account-name" />
            </Form.Item>
            <Form.Item name="username" label={t('accounts.field.username')} rules={[{ required: !editing }]}>
              <Input disabled={editing} data-testid="account-username" />
            </Form.Item>
            <Form.Item name="privileged" label={t('accounts.field.privileged')} valuePropName="checked">
              <Switch />
            </Form.Item>
            {suChoices.length > 0 && (
              <Form.Item name="su_from" label={t('accounts.field.suFrom')}>
                <Select
                  allowClear
                  data-testid="account-su-from"
                  options={suChoices.map((a) => ({ value: a.id, label: `${String(a.name)}(${String(a.username)})` }))}
                />
              </Form.Item>
            )}
            <Form.Item name="secret_type" label={t('accounts.field.secretType')}>
              <Select
                data-testid="account-secret-type"
                options={SECRET_TYPES.map((s) => ({ value: s, label: t(`accounts.secretType.${s}`) }))}
              />
            </Form.Item>
            <Form.Item
              name="secret"
              label={t(`accounts.secretType.${secretType}`)}
              extra={editing ? t('accounts.dialog.keepSecret') : undefined}
            >
              {isKey ? (
                <Input.TextArea
                  rows={6}
                  data-testid="account-secret"
                  placeholder="-----BEGIN OPENSSH PRIVATE KEY-----"
                />
              ) : (
                <Input.Password data-testid="account-secret" autoComplete="new-password" />
              )}
            </Form.Item>
            {isKey && (
              <Form.Item name="passphrase" label={t('accounts.field.passphrase')}>
                <Input.Password autoComplete="new-password" />
              </Form.Item>
            )}
          </>
        )}
        {!editing && (
          <Form.Item name="on_invalid" label={t('accounts.field.onInvalid')}>
            <Select
              options={['error', 'skip', 'update'].map((v) => ({ value: v, label: t(`accounts.onInvalid.${v}`) }))}
            />
          </Form.Item>
        )}
        {mayPush && (
          <Form.Item name="push_now" label={t('accounts.field.pushNow')} valuePropName="checked">
            <Switch data-testid="account-push-now" />
          </Form.Item>
        )}
        {mayPush && pushing && (
          <Form.Item name="sudo" label={t('accounts.field.sudo')} valuePropName="checked">
            <Switch />
          </Form.Item>
        )}
        <Form.Item name="is_active" label={t('accounts.field.isActive')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="comment" label={t('accounts.field.comment')}>
          <Input.TextArea rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
