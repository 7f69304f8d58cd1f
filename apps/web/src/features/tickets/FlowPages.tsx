import { Alert, Button, Card, Form, Radio, Select, Space, Table, Tag } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { http } from '../../lib/http.ts';
import { errorMessage } from '../../resource/errorMessage.ts';
import { RemoteSelect } from '../../resource/RemoteSelect.tsx';
import { FLOWS_URL, type Choice } from './ticketsApi.ts';

/**
 * `/tickets/flow/`: the approval flow of each ticket type in the current organisation (the global
 * organisation's where it has none), and its edit page: one or two levels, each with a strategy
 * (super admin, org admin, both, custom users). Saving the global flow from an organisation gives
 * that organisation its own copy.
 */
interface Rule {
  level: number;
  strategy: Choice;
  assignees: string[];
  assignees_display: string[];
}
interface Flow {
  id: string;
  type: Choice;
  approval_level: number;
  org_name: string;
  rules: Rule[];
}
const STRATEGIES = ['super_admin', 'org_admin', 'super_org_admin', 'custom_user'] as const;

export function FlowListPage() {
  const { t } = useTranslation();
  const flows = useQuery({ queryKey: ['ticket-flows'], queryFn: () => http.get<Flow[]>(FLOWS_URL) });
  return (
    <Card
      data-testid="ticket-flows"
      extra={
        <Link to="/tickets/flow/create">
          <Button type="primary">{t('tickets.flow.create')}</Button>
        </Link>
      }
    >
      {flows.error && <Alert type="error" showIcon title={errorMessage(flows.error, t)} />}
      <Table<Flow>
        rowKey="id"
        loading={flows.isLoading}
        dataSource={flows.data ?? []}
        pagination={false}
        columns={[
          {
            title: t('tickets.field.type'),
            render: (_, f) => <Link to={`/tickets/flow/${f.id}`}>{f.type.label}</Link>,
          },
          { title: t('tickets.flow.level'), dataIndex: 'approval_level' },
          {
            title: t('tickets.flow.rules'),
            render: (_, f) => (
              <Space direction="vertical" size={0}>
                {f.rules.map((r) => (
                  <span key={r.level}>
                    {t('tickets.steps.level', { level: r.level })}: <Tag>{r.strategy.label}</Tag>
                    {r.assignees_display.join(', ')}
                  </span>
                ))}
              </Space>
            ),
          },
          { title: t('tickets.field.org'), dataIndex: 'org_name' },
          {
            title: t('tickets.flow.actions'),
            render: (_, f) => <Link to={`/tickets/flow/${f.id}/update`}>{t('tickets.flow.edit')}</Link>,
          },
        ]}
      />
    </Card>
  );
}

interface FormValues {
  type: string;
  approval_level: number;
  rules: { strategy: string; assignees?: string[] }[];
}

const TYPES = ['general', 'apply_asset', 'login_confirm', 'login_asset_confirm', 'command_confirm'] as const;
const EMPTY: Flow = {
  id: '',
  type: { value: 'apply_asset', label: '' },
  approval_level: 1,
  org_name: '',
  rules: [],
};

/** The flow form: `create` (a type this organisation has no flow of yet), update, or read only. */
export function FlowEditPage({ readOnly = false, create = false }: { readOnly?: boolean; create?: boolean }) {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const flow = useQuery({
    queryKey: ['ticket-flow', id],
    queryFn: () => (create ? Promise.resolve(EMPTY) : http.get<Flow>(`${FLOWS_URL}${id}/`)),
  });
  const [form] = Form.useForm<FormValues>();
  const level = Form.useWatch('approval_level', form) ?? flow.data?.approval_level ?? 1;
  const rules = Form.useWatch('rules', form);
  const [error, setError] = useState<string>();
  if (flow.error) return <Alert type="error" showIcon title={errorMessage(flow.error, t)} />;
  if (!flow.data) return null;
  const f = flow.data;
  const initial: FormValues = {
    type: f.type.value,
    approval_level: f.approval_level,
    rules: [0, 1].map((i) => ({
      strategy: f.rules[i]?.strategy.value ?? 'super_admin',
      assignees: f.rules[i]?.assignees ?? [],
    })),
  };
  const save = async (v: FormValues) => {
    setError(undefined);
    try {
      const body = {
        type: v.type,
        approval_level: v.approval_level,
        rules: v.rules.slice(0, v.approval_level).map((r) => ({ strategy: r.strategy, assignees: r.assignees ?? [] })),
      };
      if (create) await http.post(FLOWS_URL, body);
      else await http.put(`${FLOWS_URL}${id}/`, body);
      await qc.invalidateQueries({ queryKey: ['ticket-flows'] });
      void navigate('/tickets/flow/');
    } catch (e) {
      setError(errorMessage(e, t));
    }
  };
  return (
    <Card
      title={create ? t('tickets.flow.create') : `${t('tickets.flow.title')}: ${f.type.label}`}
      data-testid="ticket-flow-form"
    >
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      <Form<FormValues>
        form={form}
        initialValues={initial}
        labelCol={{ span: 4 }}
        wrapperCol={{ span: 14 }}
        disabled={readOnly}
        onFinish={(v) => void save(v)}
      >
        {create && (
          <Form.Item name="type" label={t('tickets.field.type')}>
            <Select options={TYPES.map((v) => ({ value: v, label: t(`tickets.flow.type.${v}`) }))} />
          </Form.Item>
        )}
        <Form.Item name="approval_level" label={t('tickets.flow.level')}>
          <Radio.Group options={[1, 2].map((n) => ({ value: n, label: String(n) }))} />
        </Form.Item>
        {[0, 1].slice(0, level).map((i) => (
          <Space key={i} direction="vertical" style={{ width: '100%' }}>
            <Form.Item name={['rules', i, 'strategy']} label={t('tickets.steps.level', { level: i + 1 })}>
              <Select options={STRATEGIES.map((s) => ({ value: s, label: t(`tickets.flow.strategy.${s}`) }))} />
            </Form.Item>
            {rules?.[i]?.strategy === 'custom_user' && (
              <Form.Item name={['rules', i, 'assignees']} label={t('tickets.steps.assignees')}>
                <RemoteSelect
                  url="/api/v1/users/users/"
                  multiple
                  seed={(f.rules[i]?.assignees ?? []).map((a, k) => ({
                    value: a,
                    label: f.rules[i]!.assignees_display[k] ?? a,
                  }))}
                />
              </Form.Item>
            )}
          </Space>
        ))}
        {!readOnly && (
          <Form.Item wrapperCol={{ offset: 4 }}>
            <Button type="primary" htmlType="submit" data-testid="flow-submit">
              {t('tickets.flow.save')}
            </Button>
          </Form.Item>
        )}
      </Form>
      {readOnly && (
        <Link to={`/tickets/flow/${id}/update`}>
          <Button>{t('tickets.flow.edit')}</Button>
        </Link>
      )}
    </Card>
  );
}
