import { Button, Form, Input, Typography } from 'antd';
import { SafetyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { OTP_LENGTH } from '@gatehouse/contract';
import { LOGIN_OTP_BIND_URL, type OtpBinding } from './loginApi.ts';
import { useCodeSubmit } from './useCodeSubmit.ts';

interface Props {
  binding: OtpBinding;
  onDone: (next: string) => void;
  onError: (msg: string | undefined) => void;
  onBack: () => void;
}

/** MFA is required but no authenticator is bound: bind one with its first code, which signs in. */
export function OtpBindStep({ binding, onDone, onError, onBack }: Props) {
  const { t } = useTranslation();

  const { busy, submit } = useCodeSubmit(LOGIN_OTP_BIND_URL, (code) => ({ code }), onDone, onError);

  return (
    <Form<{ code: string }> layout="vertical" onFinish={submit} requiredMark={false} data-testid="otp-bind-step">
      <Typography.Title level={5}>{t('login.otpBindTitle')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('login.otpBindHint')}</Typography.Paragraph>
      <div style={{ textAlign: 'center' }}>
        <img src={binding.qr_code} alt={t('login.otpQrAlt')} width={200} height={200} />
      </div>
      <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
        {t('login.otpSecret')}{' '}
        <Typography.Text code copyable data-testid="otp-secret">
          {binding.secret}
        </Typography.Text>
      </Typography.Paragraph>
      <Form.Item label={t('login.mfaCode')} name="code">
        <Input
          prefix={<SafetyOutlined />}
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={OTP_LENGTH}
          autoFocus
          size="large"
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" size="large" block loading={busy}>
        {t('login.otpBindSubmit')}
      </Button>
      <Button type="link" block onClick={onBack}>
        {t('login.backToLogin')}
      </Button>
    </Form>
  );
}
