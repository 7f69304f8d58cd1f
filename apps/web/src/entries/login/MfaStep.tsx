import { useEffect, useState } from 'react';
import { Button, Form, Input, Segmented, Space, Typography } from 'antd';
import { SafetyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { OTP_LENGTH } from '@gatehouse/contract';
import { LOGIN_MFA_URL, MFA_SEND_CODE_URL, SMS_RESEND_SECONDS, postJson } from './loginApi.ts';
import { useCodeSubmit } from './useCodeSubmit.ts';

interface Props {
  choices: string[];
  onDone: (next: string) => void;
  onError: (msg: string | undefined) => void;
  onBack: () => void;
}

/** The second sign-in step: a 6-digit code from the authenticator app, or one sent by SMS. */
export function MfaStep({ choices, onDone, onError, onBack }: Props) {
  const { t } = useTranslation();
  const [type, setType] = useState(choices[0] ?? 'otp');
  const [wait, setWait] = useState(0);

  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  const sendCode = async () => {
    onError(undefined);
    setWait(SMS_RESEND_SECONDS);
    try {
      const r = await postJson<{ error?: string }>(MFA_SEND_CODE_URL, { type: 'sms' });
      if (r.error) onError(r.error);
    } catch {
      onError(t('login.networkError'));
    }
  };

  const { busy, submit } = useCodeSubmit(LOGIN_MFA_URL, (code) => ({ mfa_type: type, code }), onDone, onError);

  return (
    <Form<{ code: string }> layout="vertical" onFinish={submit} requiredMark={false} data-testid="mfa-step">
      <Typography.Title level={5}>{t('login.mfaTitle')}</Typography.Title>
      {choices.length > 1 && (
        <Form.Item>
          <Segmented
            block
            value={type}
            onChange={(v) => setType(String(v))}
            options={choices.map((c) => ({
              value: c,
              label: t(c === 'sms' ? 'login.mfaTypeSms' : 'login.mfaTypeOtp'),
            }))}
          />
        </Form.Item>
      )}
      <Typography.Paragraph type="secondary">
        {t(type === 'sms' ? 'login.smsHint' : 'login.mfaHint')}
      </Typography.Paragraph>
      <Form.Item label={t('login.mfaCode')} htmlFor="mfa-code">
        <Space.Compact block>
          <Form.Item name="code" noStyle>
            <Input
              id="mfa-code"
              prefix={<SafetyOutlined />}
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={OTP_LENGTH}
              autoFocus
              size="large"
            />
          </Form.Item>
          {type === 'sms' && (
            <Button size="large" disabled={wait > 0} onClick={() => void sendCode()}>
              {wait > 0 ? t('login.resendIn', { seconds: wait }) : t('login.sendCode')}
            </Button>
          )}
        </Space.Compact>
      </Form.Item>
      <Button type="primary" htmlType="submit" size="large" block loading={busy}>
        {t('login.mfaSubmit')}
      </Button>
      <Button type="link" block onClick={onBack}>
        {t('login.backToLogin')}
      </Button>
    </Form>
  );
}
