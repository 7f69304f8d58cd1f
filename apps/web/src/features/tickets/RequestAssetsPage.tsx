import { Alert, Button, Card, Checkbox, DatePicker, Form, Input, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAppStore } from '../../lib/appStore.ts';
import { HttpError } from '../../lib/http.ts';
import { errorMessage } from '../../resource/errorMessage.ts';
import { RemoteSelect } from '../../resource/RemoteSelect.tsx';
import { ACTIONS } from './TicketRequestCard.tsx';
import { openAssetRequest, ticketPath } from './ticketsApi.ts';

interface Values {
  title: string;
  apply_nodes?: string[];
  apply_assets?: string[];
  apply_accounts: string[];
  apply_actions: string[];
  dates?: [Dayjs, Dayjs];
  comment?: string;
}

/**
 * `/tickets/tickets/request-host-perm/create`: asking for assets of the current organisation —
 * nodes and/or assets, accounts (`@ALL` by default), actions, and the period (empty: from now for
 * the default duration of the ticket settings). The server's field errors show under each field.
 */
export function RequestAssetsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const profile = useAppStore((s) => s.profile);
  const settings = useAppStore((s) => s.publicSettings) as Record<string, unknown> | null;
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const duration = `${String(settings?.TICKET_AUTHORIZE_DEFAULT_TIME ?? 7)} ${t(
    `tickets.form.unit.${String(settings?.TICKET_AUTHORIZE_DEFAULT_TIME_UNIT ?? 'day')}`,
  )}`;
  const submit = async (v: Values) => {
    setBusy(true);
    setError(undefined);
    try {
      const ticket = await openAssetRequest({
        title: v.title,
        apply_nodes: v.apply_nodes ?? [],
        apply_assets: v.apply_assets ?? [],
        apply_accounts: v.apply_accounts,
        apply_actions: v.apply_actions,
        ...(v.dates
          ? { apply_date_start: v.dates[0].toISOString(), apply_date_expired: v.dates[1].toISOString() }
          : {}),
        comment: v.comment ?? '',
      });
      void navigate(ticketPath(ticket));
    } catch (e) {
      const data = e instanceof HttpError ? (e.data as Record<string, unknown>) : undefined;
      const fields = [
        'title',
        'apply_nodes',
        'apply_assets',
        'apply_accounts',
        'apply_actions',
        'apply_date_start',
        'apply_date_expired',
      ];
      const known = data && fields.filter((f) => Array.isArray(data[f]));
      if (known?.length)
        form.setFields(
          known.map((f) => ({
            name: (f.startsWith('apply_date') ? 'dates' : f) as keyof Values,
            errors: (data![f] as string[]).map(String),
          })),
        );
      else setError(errorMessage(e, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={t('tickets.form.title')} data-testid="request-assets-form">
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
      <Form<Values>
        form={form}
        layout="horizontal"
        labelCol={{ span: 4 }}
        wrapperCol={{ span: 14 }}
        initialValues={{
          title: t('tickets.form.defaultTitle', { user: profile?.name ?? '' }),
          apply_accounts: ['@ALL'],
          apply_actions: [...ACTIONS],
        }}
        onFinish={(v) => void submit(v)}
      >
        <Form.Item
          name="title"
          label={t('tickets.field.title')}
          rules={[{ required: true, message: t('tickets.form.required') }]}
        >
          <Input maxLength={256} id="title" />
        </Form.Item>
        <Form.Item name="apply_nodes" label={t('tickets.request.nodes')}>
          <RemoteSelect url="/api/v1/tickets/apply-asset-tickets/nodes/" multiple id="apply_nodes" />
        </Form.Item>
        <Form.Item name="apply_assets" label={t('tickets.request.assets')} help={t('tickets.form.assetsHelp')}>
          <RemoteSelect url="/api/v1/tickets/apply-asset-tickets/assets/" multiple id="apply_assets" />
        </Form.Item>
        <Form.Item name="apply_accounts" label={t('tickets.request.accounts')} help={t('tickets.form.accountsHelp')}>
          <Select mode="tags" id="apply_accounts" options={[{ value: '@ALL', label: t('tickets.form.allAccounts') }]} />
        </Form.Item>
        <Form.Item name="apply_actions" label={t('tickets.request.actions')}>
          <Checkbox.Group options={ACTIONS.map((a) => ({ value: a, label: t(`tickets.actions.${a}`) }))} />
        </Form.Item>
        <Form.Item name="dates" label={t('tickets.request.dates')} help={t('tickets.form.datesHelp', { duration })}>
          <DatePicker.RangePicker showTime />
        </Form.Item>
        <Form.Item name="comment" label={t('tickets.field.comment')}>
          <Input.TextArea rows={3} />
        </Form.Item>
        <Form.Item wrapperCol={{ offset: 4 }}>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="request-submit">
            {t('tickets.form.submit')}
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}
