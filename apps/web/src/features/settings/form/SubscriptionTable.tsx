import { useState } from 'react';
import { App, Button, Checkbox, Form, Modal, Table } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../../../lib/http.ts';
import { errorMessage } from '../../../resource/errorMessage.ts';
import { RemoteSelect } from '../../../resource/RemoteSelect.tsx';

/**
 * Messages › Subscription: every message type (grouped by category) against the backends that can
 * send now (`/api/v1/notifications/backends/`); a checkbox PATCHes the type's `receive_backends`
 * (`system-msg-subscription/<type>/`), and the receivers dialog its extra users and groups.
 * Every sender of the server honours it.
 */
const BASE = '/api/v1/notifications/';

interface Child {
  message_type: string;
  message_type_label: string;
  users: { id: string; name: string; username: string }[];
  groups: { id: string; name: string }[];
  receive_backends: string[];
  receivers: string[];
}
interface Group {
  category: string;
  category_label: string;
  children: Child[];
}
interface Row extends Child {
  category_label: string;
  key: string;
}

/** The extra users and groups of a message type, chosen by name. */
function ReceiversDialog({ row, onClose }: { row: Row; onClose: (saved: boolean) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ users: string[]; groups: string[] }>();
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    try {
      await http.patch(`${BASE}system-msg-subscription/${row.message_type}/`, form.getFieldsValue());
      onClose(true);
    } catch (e) {
      void message.error(errorMessage(e, t));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={`${t('settings.msg.receivers')} · ${row.message_type_label}`}
      onCancel={() => onClose(false)}
      onOk={() => void save()}
      confirmLoading={saving}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ users: row.users.map((u) => u.id), groups: row.groups.map((g) => g.id) }}
      >
        <Form.Item name="users" label={t('settings.msg.users')}>
          <RemoteSelect
            url="/api/v1/users/users/"
            multiple
            seed={row.users.map((u) => ({ value: u.id, label: `${u.name}(${u.username})` }))}
          />
        </Form.Item>
        <Form.Item name="groups" label={t('settings.msg.groups')}>
          <RemoteSelect
            url="/api/v1/users/groups/"
            multiple
            seed={row.groups.map((g) => ({ value: g.id, label: g.name }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function SubscriptionTable() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Row | undefined>();
  const backends = useQuery({
    queryKey: [`${BASE}backends/`],
    queryFn: () => http.get<{ name: string; name_display: string }[]>(`${BASE}backends/`),
  });
  const listKey = [`${BASE}system-msg-subscription/`];
  const list = useQuery({ queryKey: listKey, queryFn: () => http.get<Group[]>(`${BASE}system-msg-subscription/`) });
  const rows: Row[] = (list.data ?? []).flatMap((g) =>
    g.children.map((c) => ({ ...c, category_label: g.category_label, key: c.message_type })),
  );
  const toggle = async (row: Row, backend: string, on: boolean) => {
    const next = on ? [...row.receive_backends, backend] : row.receive_backends.filter((b) => b !== backend);
    try {
      await http.patch(`${BASE}system-msg-subscription/${row.message_type}/`, { receive_backends: next });
      await queryClient.invalidateQueries({ queryKey: listKey });
      void message.success(t('settings.msg.saved'));
    } catch (e) {
      void message.error(errorMessage(e, t));
    }
  };
  return (
    <>
      {editing && (
        <ReceiversDialog
          row={editing}
          onClose={(saved) => {
            setEditing(undefined);
            if (saved) void queryClient.invalidateQueries({ queryKey: listKey });
          }}
        />
      )}
      <Table<Row>
        rowKey="key"
        size="small"
        pagination={false}
        loading={list.isPending || backends.isPending}
        dataSource={rows}
        data-testid="msg-subscription"
        columns={[
          {
            title: t('settings.msg.messageType'),
            render: (_: unknown, r) => `${r.category_label} · ${r.message_type_label}`,
          },
          {
            title: t('settings.msg.receivers'),
            render: (_: unknown, r) => (
              <Button
                type="link"
                style={{ padding: 0 }}
                onClick={() => setEditing(r)}
                data-testid={`sub-receivers-${r.message_type}`}
              >
                {r.receivers.join(', ') || '—'}
              </Button>
            ),
          },
          ...(backends.data ?? []).map((b) => ({
            title: b.name_display,
            key: b.name,
            render: (_: unknown, r: Row) => (
              <Checkbox
                data-testid={`sub-${r.message_type}-${b.name}`}
                checked={r.receive_backends.includes(b.name)}
                onChange={(e) => void toggle(r, b.name, e.target.checked)}
              />
            ),
          })),
        ]}
      />
    </>
  );
}
