import { useState } from 'react';
import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { HttpError } from '../../lib/http.ts';
import { extractMessage } from '../../lib/httpErrors.ts';
import { changePassword, type PasswordValues } from './profileApi.ts';

const FIELDS = ['old_password', 'new_password', 'new_password_again'] as const;

/**
 * Changing one's own password (`PUT /api/v1/users/profile/password/`): server errors land on their
 * fields; a message without a field is shown under the form.
 */
export function PasswordForm({ onDone, submitText }: { onDone: () => void | Promise<void>; submitText?: string }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PasswordValues>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const submit = async (values: PasswordValues) => {
    setBusy(true);
    setError(undefined);
    try {
      await changePassword(values);
      form.resetFields();
      await onDone();
    } catch (e) {
      const data = e instanceof HttpError ? e.data : undefined;
      const fieldErrors = FIELDS.filter((f) => data && typeof data === 'object' && f in data).map((f) => ({
        name: f,
        errors: ([] as unknown[]).concat((data as Record<string, unknown>)[f]).map(String),
      }));
      if (fieldErrors.length) form.setFields(fieldErrors);
      else setError((e instanceof HttpError && extractMessage(e.data)) || t('session.error.unknown'));
    } finally {
      setBusy(false);
    }
  };

  const required = { required: true, message: t('profile.password.required') };
  return (
    <Form
      form={form}
      layout="vertical"
      onFinish={(v) => void submit(v)}
      style={{ maxWidth: 420 }}
      data-testid="password-form"
    >
      <Form.Item name="old_password" label={t('profile.password.old')} rules={[required]}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item name="new_password" label={t('profile.password.new')} rules={[required]}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="new_password_again"
        label={t('profile.password.again')}
        dependencies={['new_password']}
        rules={[
          required,
          ({ getFieldValue }) => ({
            validator: (_, v) =>
              !v || v === getFieldValue('new_password')
                ? Promise.resolve()
                : Promise.reject(new Error(t('profile.password.mismatch'))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      {error && <Form.Item validateStatus="error" help={error} />}
      <Button type="primary" htmlType="submit" loading={busy}>
        {submitText ?? t('profile.password.submit')}
      </Button>
    </Form>
  );
}
