import { useEffect, useState } from 'react';
import { App, Button, Descriptions, Form, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { http, HttpError } from '../../lib/http.ts';
import { extractMessage } from '../../lib/httpErrors.ts';

/**
 * The SSH public key the native SSH server signs the user in with
 * (`/api/v1/users/profile/public-key/`): the current key's comment and MD5 fingerprint, a field to
 * paste a new one (`ssh-ed25519 AAAA... comment`), and removal.
 */
const URL = '/api/v1/users/profile/public-key/';

interface KeyFacts {
  public_key_comment: string;
  public_key_hash_md5: string;
}

export function PublicKeyForm() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ public_key: string }>();
  const [facts, setFacts] = useState<KeyFacts>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    http.get<KeyFacts>(URL).then(setFacts, () => undefined);
  }, []);

  const save = async (value: string) => {
    setBusy(true);
    try {
      setFacts(await http.put<KeyFacts>(URL, { public_key: value }));
      form.resetFields();
      void message.success(t('profile.publicKey.saved'));
    } catch (e) {
      const data = e instanceof HttpError ? (e.data as { public_key?: string[] }) : undefined;
      form.setFields([
        {
          name: 'public_key',
          errors: data?.public_key ?? [
            (e instanceof HttpError && extractMessage(e.data)) || t('session.error.unknown'),
          ],
        },
      ]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space direction="vertical" style={{ maxWidth: 640, width: '100%' }} data-testid="public-key-form">
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label={t('profile.publicKey.fingerprint')}>
          {facts?.public_key_hash_md5 || t('profile.publicKey.none')}
        </Descriptions.Item>
        <Descriptions.Item label={t('profile.publicKey.comment')}>{facts?.public_key_comment || '-'}</Descriptions.Item>
      </Descriptions>
      <Form form={form} layout="vertical" onFinish={(v) => void save(v.public_key)}>
        <Form.Item
          name="public_key"
          label={t('profile.publicKey.label')}
          extra={t('profile.publicKey.help')}
          rules={[{ required: true, message: t('profile.publicKey.required') }]}
        >
          <Input.TextArea rows={4} placeholder="ssh-ed25519 AAAA... user@host" spellCheck={false} />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={busy}>
            {t('profile.publicKey.submit')}
          </Button>
          <Button disabled={!facts?.public_key_hash_md5} onClick={() => void save('')}>
            {t('profile.publicKey.remove')}
          </Button>
        </Space>
      </Form>
    </Space>
  );
}
