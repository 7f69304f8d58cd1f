import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Descriptions, Form, Modal, Radio, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { HttpError } from '../../lib/http.ts';
import { serverMessage } from './socketMessages.ts';
import { lunaApi, type Sharing, type SharingBody } from './lunaApi.ts';

interface Props {
  sessionId: string;
  onClose(): void;
}

/** How long a sharing lasts, in minutes (the original's choices). */
const MINUTES = [1, 5, 10, 20, 60];

/**
 * Sharing the open session (server: modules/terminal/sharing/): how long, read-only or writable,
 * and optionally only for some colleagues (members of the session's org, searched by name); then
 * the link and the verify code to send them, and a button that stops the sharing at once.
 */
export function ShareDialog({ sessionId, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Omit<SharingBody, 'session'>>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [sharing, setSharing] = useState<Sharing>();
  const [candidates, setCandidates] = useState<{ value: string; label: string }[]>([]);
  const searchSeq = useRef(0);

  const search = (text: string) => {
    const seq = ++searchSeq.current;
    void lunaApi
      .shareCandidates(sessionId, text)
      .then((users) => {
        if (seq === searchSeq.current)
          setCandidates(users.map((u) => ({ value: u.id, label: `${u.name}(${u.username})` })));
      })
      .catch(() => undefined);
  };
  useEffect(() => search(''), []); // eslint-disable-line react-hooks/exhaustive-deps

  const failure = (e: unknown) => (e instanceof HttpError && serverMessage(e.data)) || t('luna.share.failed');
  const create = async () => {
    const v = await form.validateFields();
    setBusy(true);
    setError(undefined);
    try {
      setSharing(await lunaApi.createSharing({ ...v, users: v.users ?? [], session: sessionId }));
    } catch (e) {
      setError(failure(e));
    } finally {
      setBusy(false);
    }
  };
  const stop = async () => {
    if (!sharing) return;
    setBusy(true);
    try {
      setSharing(await lunaApi.stopSharing(sharing.id));
    } catch (e) {
      setError(failure(e));
    } finally {
      setBusy(false);
    }
  };

  const until = sharing ? new Date(Date.parse(sharing.date_created) + sharing.expired_time * 60_000) : undefined;
  return (
    <Modal
      open
      title={t('luna.share.title')}
      onCancel={onClose}
      destroyOnHidden
      data-testid="share-dialog"
      footer={
        sharing ? (
          <Space>
            {sharing.is_active ? (
              <Button danger loading={busy} onClick={() => void stop()} data-testid="share-stop">
                {t('luna.share.stop')}
              </Button>
            ) : null}
            <Button type="primary" onClick={onClose}>
              {t('luna.share.done')}
            </Button>
          </Space>
        ) : (
          <Space>
            <Button onClick={onClose}>{t('luna.share.cancel')}</Button>
            <Button type="primary" loading={busy} onClick={() => void create()} data-testid="share-create">
              {t('luna.share.create')}
            </Button>
          </Space>
        )
      }
    >
      {sharing ? (
        <Space orientation="vertical" style={{ width: '100%' }}>
          {!sharing.is_active ? <Alert type="info" showIcon title={t('luna.share.stopped')} /> : null}
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('luna.share.link')}>
              <Typography.Text copyable data-testid="share-url">
                {sharing.url}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('luna.share.code')}>
              <Typography.Text copyable strong code data-testid="share-verify-code">
                {sharing.verify_code}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('luna.share.permission')}>{sharing.action_permission.label}</Descriptions.Item>
            <Descriptions.Item label={t('luna.share.until')}>{until?.toLocaleString()}</Descriptions.Item>
            <Descriptions.Item label={t('luna.share.users')}>
              {sharing.users_display || t('luna.share.anyMember')}
            </Descriptions.Item>
          </Descriptions>
          <Typography.Text type="secondary">{t('luna.share.sendBoth')}</Typography.Text>
        </Space>
      ) : (
        <Form
          form={form}
          layout="vertical"
          initialValues={{ expired_time: 10, action_permission: 'readonly', users: [] }}
          data-testid="share-form"
        >
          <Form.Item name="expired_time" label={t('luna.share.duration')}>
            <Select
              options={MINUTES.map((n) => ({ value: n, label: t('luna.share.minutes', { count: n }) }))}
              data-testid="share-duration"
            />
          </Form.Item>
          <Form.Item name="action_permission" label={t('luna.share.permission')}>
            <Radio.Group
              options={[
                { value: 'readonly', label: t('luna.share.readonly') },
                { value: 'writable', label: t('luna.share.writable') },
              ]}
              data-testid="share-permission"
            />
          </Form.Item>
          <Form.Item name="users" label={t('luna.share.users')} extra={t('luna.share.usersHelp')}>
            <Select
              mode="multiple"
              showSearch={{ filterOption: false, onSearch: search }}
              options={candidates}
              placeholder={t('luna.share.anyMember')}
              data-testid="share-users"
            />
          </Form.Item>
          {error ? <Alert type="error" showIcon title={error} data-testid="share-error" /> : null}
        </Form>
      )}
    </Modal>
  );
}
