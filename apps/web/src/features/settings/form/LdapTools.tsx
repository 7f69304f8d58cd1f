import { useState } from 'react';
import { Alert, App, Button, Form, Input, Modal, Select, Space, Table, Tag, type FormInstance } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http, HttpError } from '../../../lib/http.ts';
import { errorMessage } from '../../../resource/errorMessage.ts';
import { useMemberOrgOptions } from './memberOrgs.ts';

/**
 * The LDAP page's tools (`/api/v1/settings/ldap/…`): test the form's configuration (unsaved values
 * included), test a user's sign-in, and the user synchronisation dialog (the cached directory
 * list, polled every second while a sync runs; import of chosen users or all into chosen orgs).
 */
const BASE = '/api/v1/settings/ldap/';

interface LdapUser {
  id: string;
  username: string;
  name: string;
  email: string;
  groups: string[];
  existing: boolean;
}

interface ImportAnswer {
  msg: string;
  errors: { username: string; msg: string }[];
}

/** The server's `msg`, `error` or field messages of a failed call. */
function failure(e: unknown, t: Parameters<typeof errorMessage>[1]): string {
  if (e instanceof HttpError && e.data && typeof e.data === 'object') {
    const d = e.data as Record<string, unknown>;
    if (typeof d.msg === 'string') return d.msg;
    if (typeof d.error === 'string') return d.error;
    const first = Object.values(d).flat()[0];
    if (typeof first === 'string') return first;
  }
  return errorMessage(e, t);
}

export function LdapTools({ form }: { form: FormInstance<Record<string, unknown>> }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [testing, setTesting] = useState(false);
  const [loginOpen, setLoginOpen] = useState(false);
  const [syncOpen, setSyncOpen] = useState(false);

  const testConfig = async () => {
    setTesting(true);
    try {
      const r = await http.post<{ msg: string }>(`${BASE}testing/config/`, form.getFieldsValue());
      void message.success(<span data-testid="ldap-test-result">{r.msg}</span>);
    } catch (e) {
      void message.error(<span data-testid="ldap-test-result">{failure(e, t)}</span>);
    } finally {
      setTesting(false);
    }
  };

  return (
    <Space>
      <Button onClick={() => void testConfig()} loading={testing} data-testid="ldap-test-config">
        {t('settings.ldap.testConfig')}
      </Button>
      <Button onClick={() => setLoginOpen(true)} data-testid="ldap-test-login">
        {t('settings.ldap.testLogin')}
      </Button>
      <Button onClick={() => setSyncOpen(true)} data-testid="ldap-sync-users">
        {t('settings.ldap.syncUsers')}
      </Button>
      {loginOpen && <TestLoginDialog onClose={() => setLoginOpen(false)} />}
      {syncOpen && <SyncDialog onClose={() => setSyncOpen(false)} />}
    </Space>
  );
}

function TestLoginDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ username: string; password: string }>();
  const [result, setResult] = useState<{ ok: boolean; msg: string }>();
  const [busy, setBusy] = useState(false);
  const run = async (v: { username: string; password: string }) => {
    setBusy(true);
    try {
      setResult({ ok: true, msg: (await http.post<{ msg: string }>(`${BASE}testing/login/`, v)).msg });
    } catch (e) {
      setResult({ ok: false, msg: failure(e, t) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t('settings.ldap.testLogin')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('settings.ldap.test')}
      confirmLoading={busy}
    >
      <Form form={form} layout="vertical" onFinish={(v) => void run(v)}>
        <Form.Item name="username" label={t('settings.ldap.username')} rules={[{ required: true }]}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="password" label={t('settings.ldap.password')} rules={[{ required: true }]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
      {result && <Alert type={result.ok ? 'success' : 'error'} message={result.msg} data-testid="ldap-login-result" />}
    </Modal>
  );
}

function SyncDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [orgIds, setOrgIds] = useState<string[]>([]);
  const [answer, setAnswer] = useState<ImportAnswer>();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const key = [`${BASE}users/`, search];
  const users = useQuery({
    queryKey: key,
    queryFn: () => http.get<LdapUser[]>(`${BASE}users/`, { params: { search, cache_police: 1 } }),
    // 409: a sync is running (or has just been started): ask again every second.
    retry: (n, e) => e instanceof HttpError && e.status === 409 && n < 600,
    retryDelay: 1000,
  });
  const orgs = useMemberOrgOptions();
  const refresh = async () => {
    try {
      await http.get(`${BASE}cache/refresh/`);
    } catch (e) {
      setProblem(failure(e, t));
    }
    await queryClient.invalidateQueries({ queryKey: [`${BASE}users/`] });
  };
  const importUsers = async (names: string[]) => {
    setBusy(true);
    setProblem(undefined);
    try {
      setAnswer(await http.post<ImportAnswer>(`${BASE}users/import/`, { username_list: names, org_ids: orgIds }));
      await queryClient.invalidateQueries({ queryKey: [`${BASE}users/`] });
    } catch (e) {
      setProblem(failure(e, t));
    } finally {
      setBusy(false);
    }
  };
  const waiting = users.isPending || (users.error instanceof HttpError && users.error.status === 409);
  return (
    <Modal open width="70%" title={t('settings.ldap.syncUsers')} onCancel={onClose} footer={null}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space wrap>
          <Input.Search
            placeholder={t('settings.ldap.search')}
            allowClear
            onSearch={setSearch}
            style={{ width: 240 }}
          />
          <Button onClick={() => void refresh()}>{t('settings.ldap.refresh')}</Button>
          <Select
            mode="multiple"
            placeholder={t('settings.ldap.orgs')}
            style={{ minWidth: 240 }}
            value={orgIds}
            onChange={setOrgIds}
            loading={orgs.loading}
            options={orgs.options}
          />
          <Button
            type="primary"
            disabled={selected.length === 0 || orgIds.length === 0}
            loading={busy}
            onClick={() => void importUsers(selected)}
          >
            {t('settings.ldap.import')}
          </Button>
          <Button disabled={orgIds.length === 0} loading={busy} onClick={() => void importUsers(['*'])}>
            {t('settings.ldap.importAll')}
          </Button>
        </Space>
        {problem && <Alert type="error" message={problem} />}
        {users.error && !waiting && <Alert type="error" message={failure(users.error, t)} />}
        {answer && (
          <Alert
            type={answer.errors.length ? 'warning' : 'success'}
            message={answer.msg}
            description={answer.errors.length ? answer.errors.map((e) => e.msg).join('\n') : undefined}
            style={{ whiteSpace: 'pre-line' }}
            data-testid="ldap-import-result"
          />
        )}
        <Table<LdapUser>
          rowKey="username"
          size="small"
          loading={waiting}
          dataSource={users.data ?? []}
          rowSelection={{ selectedRowKeys: selected, onChange: (k) => setSelected(k as string[]) }}
          pagination={{ defaultPageSize: 10, showSizeChanger: true }}
          data-testid="ldap-users"
          columns={[
            { title: t('settings.ldap.username'), dataIndex: 'username' },
            { title: t('settings.ldap.name'), dataIndex: 'name' },
            { title: t('settings.ldap.email'), dataIndex: 'email' },
            { title: t('settings.ldap.groups'), dataIndex: 'groups', render: (g: string[]) => g.join(', ') },
            {
              title: t('settings.ldap.existing'),
              dataIndex: 'existing',
              render: (v: boolean) => (v ? <Tag color="success">✓</Tag> : null),
            },
          ]}
        />
      </Space>
    </Modal>
  );
}
