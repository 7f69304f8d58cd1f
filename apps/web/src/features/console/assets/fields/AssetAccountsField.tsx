import { useState } from 'react';
import { Button, Form, Input, Modal, Select, Space, Switch, Table, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../../../../lib/http.ts';
import type { Page, ResourceObject } from '../../../../resource/types.ts';
import { SECRET_TYPES } from '../../accounts/AccountDialog.tsx';
import { TEMPLATES } from '../../accounts/accountApi.ts';

/**
 * One account to create with the asset (`accounts` of the asset POST, api-contract §4.2): typed in
 * the form, taken from a template (`template`: the server copies its username, secret and flags), or
 * on a clone the source asset's account (`id`: the server copies its secret).
 */
export interface AccountDraft {
  id?: string;
  template?: string;
  name?: string;
  username: string;
  secret_type: string;
  secret?: string;
  passphrase?: string;
  privileged?: boolean;
}

/** The secrets of the drafts, for the form's `encryptedFields`. */
export const ACCOUNT_SECRET_PATHS = ['accounts.secret', 'accounts.passphrase'];

/** The body of one draft: empty values left out, a template's or a copied account's fields left to the server. */
export function accountPayload(d: AccountDraft): Record<string, unknown> {
  if (d.template) return { template: d.template, ...(d.name ? { name: d.name } : {}) };
  const out: Record<string, unknown> = {
    ...(d.id ? { id: d.id } : {}),
    ...(d.name ? { name: d.name } : {}),
    username: d.username,
    secret_type: d.secret_type,
    privileged: Boolean(d.privileged),
  };
  if (d.secret) out.secret = d.secret;
  if (d.secret && d.secret_type === 'ssh_key' && d.passphrase) out.passphrase = d.passphrase;
  return out;
}

export interface AssetAccountsFieldProps {
  value?: AccountDraft[];
  onChange?(value: AccountDraft[]): void;
  /** Secret types the platform's protocols accept (all when empty). */
  secretTypes: string[];
  /** The platform's protocols: templates are offered for these (`?protocols=`). */
  protocols: string[];
}

interface Editing {
  /** The row being changed, or -1 for a new one. */
  index: number;
  draft?: AccountDraft;
}

/**
 * The Accounts group of the asset form (create only): the accounts to create with the asset, added
 * one by one or from templates, changed or removed before saving. Secrets stay in the form until it is
 * sent, and travel encrypted (`ACCOUNT_SECRET_PATHS`).
 */
export function AssetAccountsField({ value = [], onChange, secretTypes, protocols }: AssetAccountsFieldProps) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [picking, setPicking] = useState(false);
  const types = secretTypes.length ? SECRET_TYPES.filter((s) => secretTypes.includes(s)) : [...SECRET_TYPES];
  const typeLabel = (s: string) => t(`accounts.secretType.${s}`, { defaultValue: s });

  const remove = (i: number) => onChange?.(value.filter((_, j) => j !== i));
  const save = (d: AccountDraft) => {
    if (!editing) return;
    onChange?.(editing.index < 0 ? [...value, d] : value.map((x, j) => (j === editing.index ? d : x)));
    setEditing(null);
  };

  return (
    <div data-testid="asset-accounts-field">
      <Table<AccountDraft>
        size="small"
        pagination={false}
        rowKey={(r) => String(value.indexOf(r))}
        dataSource={value}
        locale={{ emptyText: t('assets.accounts.empty') }}
        columns={[
          { title: t('accounts.field.name'), dataIndex: 'name', render: (n: string | undefined, r) => n || r.username },
          { title: t('accounts.field.username'), dataIndex: 'username' },
          {
            title: t('accounts.field.secretType'),
            dataIndex: 'secret_type',
            render: (s: string, r) => (
              <Space size={4}>
                {typeLabel(s)}
                {r.template ? (
                  <Tag color="blue">{t('assets.accounts.fromTemplate')}</Tag>
                ) : r.secret ? null : r.id ? (
                  <Tag color="blue">{t('assets.accounts.copied')}</Tag>
                ) : (
                  <Tag>{t('assets.accounts.noSecret')}</Tag>
                )}
              </Space>
            ),
          },
          {
            title: t('accounts.field.privileged'),
            dataIndex: 'privileged',
            width: 90,
            render: (p: boolean | undefined) => (p ? <Tag color="orange">{t('resource.yes')}</Tag> : t('resource.no')),
          },
          {
            title: t('resource.actions'),
            key: 'actions',
            width: 130,
            render: (_: unknown, r, i) => (
              <Space size={0}>
                <Button
                  type="link"
                  size="small"
                  disabled={Boolean(r.template)}
                  data-testid={`asset-account-edit-${i}`}
                  onClick={() => setEditing({ index: i, draft: r })}
                >
                  {t('resource.update')}
                </Button>
                <Button
                  type="link"
                  size="small"
                  danger
                  data-testid={`asset-account-remove-${i}`}
                  onClick={() => remove(i)}
                >
                  {t('resource.delete.action')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <Space style={{ marginTop: 8 }}>
        <Button icon={<PlusOutlined />} data-testid="asset-account-add" onClick={() => setEditing({ index: -1 })}>
          {t('assets.accounts.add')}
        </Button>
        <Button data-testid="asset-account-template-add" onClick={() => setPicking(true)}>
          {t('accounts.action.templateAdd')}
        </Button>
      </Space>
      {editing && (
        <DraftDialog
          draft={editing.draft}
          types={types}
          taken={value.filter((_, j) => j !== editing.index)}
          onCancel={() => setEditing(null)}
          onSave={save}
        />
      )}
      {picking && (
        <TemplatePicker
          protocols={protocols}
          onCancel={() => setPicking(false)}
          onPick={(drafts) => {
            onChange?.([...value, ...drafts]);
            setPicking(false);
          }}
        />
      )}
    </div>
  );
}

interface DraftDialogProps {
  draft?: AccountDraft;
  types: string[];
  /** The other rows: a username and secret type already listed is refused. */
  taken: AccountDraft[];
  onCancel(): void;
  onSave(d: AccountDraft): void;
}

/** One account: typing the name fills the username; root and administrator are privileged by default. */
function DraftDialog({ draft, types, taken, onCancel, onSave }: DraftDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<AccountDraft>();
  const secretType = (Form.useWatch('secret_type', form) as string | undefined) ?? draft?.secret_type ?? types[0];
  const isKey = secretType === 'ssh_key';
  const submit = async () => {
    const v = await form.validateFields();
    onSave({
      ...(draft?.id ? { id: draft.id } : {}),
      name: v.name?.trim() || undefined,
      username: v.username.trim(),
      secret_type: v.secret_type,
      privileged: Boolean(v.privileged),
      // A copied account keeps the source's secret unless one is typed.
      ...(v.secret ? { secret: v.secret } : {}),
      ...(v.secret && isKey && v.passphrase ? { passphrase: v.passphrase } : {}),
    });
  };
  return (
    <Modal
      open
      title={t(draft ? 'accounts.dialog.update' : 'accounts.dialog.add')}
      onCancel={onCancel}
      onOk={() => void submit().catch(() => undefined)}
      width={560}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        data-testid="asset-account-dialog"
        initialValues={{ privileged: false, ...draft, secret_type: draft?.secret_type ?? types[0] }}
        onValuesChange={(changed: Partial<AccountDraft>) => {
          if (draft || !('name' in changed)) return;
          const name = String(changed.name ?? '');
          form.setFieldsValue({ username: name, privileged: ['root', 'administrator'].includes(name.toLowerCase()) });
        }}
      >
        <Form.Item name="name" label={t('accounts.field.name')}>
          <Input data-testid="asset-account-name" />
        </Form.Item>
        <Form.Item
          name="username"
          label={t('accounts.field.username')}
          dependencies={['secret_type']}
          rules={[
            { required: true, whitespace: true, message: t('resource.form.required') },
            ({ getFieldValue }) => ({
              validator: async (_, v: string | undefined) => {
                const type = getFieldValue('secret_type') as string;
                if (v && taken.some((d) => d.username === v.trim() && d.secret_type === type))
                  throw new Error(t('assets.accounts.duplicate'));
              },
            }),
          ]}
        >
          <Input data-testid="asset-account-username" />
        </Form.Item>
        <Form.Item name="privileged" label={t('accounts.field.privileged')} valuePropName="checked">
          <Switch data-testid="asset-account-privileged" />
        </Form.Item>
        <Form.Item name="secret_type" label={t('accounts.field.secretType')}>
          <Select
            data-testid="asset-account-secret-type"
            options={types.map((s) => ({ value: s, label: t(`accounts.secretType.${s}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="secret"
          label={t(`accounts.secretType.${secretType}`, { defaultValue: t('accounts.field.secret') })}
          extra={draft?.id && !draft.secret ? t('assets.accounts.keepCopied') : undefined}
        >
          {isKey ? (
            <Input.TextArea
              rows={5}
              spellCheck={false}
              data-testid="asset-account-secret"
              placeholder="-----BEGIN OPENSSH PRIVATE KEY-----"
            />
          ) : (
            <Input.Password data-testid="asset-account-secret" autoComplete="new-password" />
          )}
        </Form.Item>
        {isKey && (
          <Form.Item name="passphrase" label={t('accounts.field.passphrase')}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

interface TemplatePickerProps {
  protocols: string[];
  onCancel(): void;
  onPick(drafts: AccountDraft[]): void;
}

const choiceValue = (v: unknown) =>
  v && typeof v === 'object' && 'value' in v ? String((v as { value: unknown }).value) : String(v ?? '');

/** Templates whose secret type the platform's protocols accept; each one chosen is a row. */
function TemplatePicker({ protocols, onCancel, onPick }: TemplatePickerProps) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<string[]>([]);
  const templates = useQuery({
    queryKey: ['asset-form-templates', protocols.join(',')],
    queryFn: () =>
      http.get<Page<ResourceObject>>(TEMPLATES, {
        params: { limit: 100, offset: 0, ...(protocols.length ? { protocols: protocols.join(',') } : {}) },
      }),
  });
  const rows = templates.data?.results ?? [];
  return (
    <Modal
      open
      title={t('accounts.dialog.templateAdd')}
      onCancel={onCancel}
      okButtonProps={{ disabled: !chosen.length }}
      onOk={() =>
        onPick(
          rows
            .filter((r) => chosen.includes(String(r.id)))
            .map((r) => ({
              template: String(r.id),
              name: String(r.name),
              username: String(r.username),
              secret_type: choiceValue(r.secret_type),
              privileged: Boolean(r.privileged),
            })),
        )
      }
      destroyOnHidden
    >
      <Select
        mode="multiple"
        style={{ width: '100%' }}
        loading={templates.isPending}
        data-testid="asset-account-templates"
        value={chosen}
        onChange={setChosen}
        optionFilterProp="label"
        placeholder={t('accounts.field.template')}
        options={rows.map((r) => ({ value: String(r.id), label: `${String(r.name)}(${String(r.username)})` }))}
      />
    </Modal>
  );
}
