import { useState } from 'react';
import { App, Button, Form, Input } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { HttpError } from '../../lib/http.ts';
import { extractMessage } from '../../lib/httpErrors.ts';
import { PROFILE_KEY, updateProfile, type FullProfile } from './profileApi.ts';

interface Values {
  phone: string;
  wechat: string;
}

/** The Profile tab: username, name and email shown read-only; phone and WeChat editable. */
export function ProfileForm({ profile }: { profile: FullProfile }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const submit = async (v: Values) => {
    setBusy(true);
    try {
      await updateProfile({ phone: v.phone ?? '', wechat: v.wechat ?? '' });
      void message.success(t('profile.saved'));
      await queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
    } catch (e) {
      const data = e instanceof HttpError ? e.data : undefined;
      const fields = (['phone', 'wechat'] as const).filter((f) => data && typeof data === 'object' && f in data);
      if (fields.length)
        form.setFields(
          fields.map((f) => ({
            name: f,
            errors: ([] as unknown[]).concat((data as Record<string, unknown>)[f]).map(String),
          })),
        );
      else void message.error((e instanceof HttpError && extractMessage(e.data)) || t('session.error.unknown'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form
      form={form}
      layout="vertical"
      style={{ maxWidth: 420 }}
      initialValues={{
        phone: profile.phone?.phone ? `${profile.phone.code ?? ''}${profile.phone.phone}` : '',
        wechat: profile.wechat ?? '',
      }}
      onFinish={(v) => void submit(v)}
    >
      <Form.Item label={t('profile.field.username')}>
        <Input value={profile.username} disabled />
      </Form.Item>
      <Form.Item label={t('profile.field.name')}>
        <Input value={profile.name} disabled />
      </Form.Item>
      <Form.Item label={t('profile.field.email')}>
        <Input value={profile.email} disabled />
      </Form.Item>
      <Form.Item name="phone" label={t('profile.field.phone')}>
        <Input maxLength={128} />
      </Form.Item>
      <Form.Item name="wechat" label={t('profile.field.wechat')}>
        <Input maxLength={128} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy}>
        {t('profile.save')}
      </Button>
    </Form>
  );
}
