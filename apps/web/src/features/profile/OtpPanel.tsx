import { OTP_LENGTH } from '@gatehouse/contract';
import { useState } from 'react';
import { Alert, App, Button, Form, Input, Space, Spin, Tag, Typography } from 'antd';
import { SafetyOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { HttpError } from '../../lib/http.ts';
import { extractMessage } from '../../lib/httpErrors.ts';
import {
  confirmOtpBinding,
  fetchOtpStatus,
  OTP_KEY,
  PROFILE_KEY,
  startOtpBinding,
  unbindOtp,
  type OtpBinding,
} from './profileApi.ts';

/**
 * The authenticator (TOTP) of the signed-in user: binding shows the QR code and the secret of a
 * new seed (after a re-verification), and the first code confirms it; removing it takes a code.
 */
export function OtpPanel({ onBound }: { onBound?: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: OTP_KEY, queryFn: fetchOtpStatus });
  const [binding, setBinding] = useState<OtpBinding>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const failure = (e: unknown) =>
    setError(
      e instanceof HttpError
        ? extractMessage(e.data) || t('session.error.unknown')
        : e instanceof Error
          ? e.message
          : String(e),
    );
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: OTP_KEY });
    await queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
  };
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (e) {
      failure(e);
    } finally {
      setBusy(false);
    }
  };

  const start = () => run(async () => setBinding(await startOtpBinding()));
  const submitCode = (kind: 'bind' | 'unbind') =>
    run(async () => {
      if (code.trim().length !== OTP_LENGTH) throw new Error(t('session.reverify.mfaError'));
      await (kind === 'bind' ? confirmOtpBinding(code.trim()) : unbindOtp(code.trim()));
      setBinding(undefined);
      setCode('');
      void message.success(kind === 'bind' ? t('profile.otp.bound') : t('profile.otp.unbound'));
      await refresh();
      if (kind === 'bind') onBound?.();
    });

  if (status.isLoading) return <Spin />;
  if (status.isError)
    return (
      <Alert
        type="error"
        showIcon
        title={extractMessage((status.error as HttpError).data) || t('session.error.unknown')}
      />
    );
  const s = status.data!;
  const codeInput = (
    <Input
      value={code}
      onChange={(e) => setCode(e.target.value)}
      prefix={<SafetyOutlined />}
      maxLength={OTP_LENGTH}
      inputMode="numeric"
      autoComplete="one-time-code"
      placeholder={t('profile.otp.codePlaceholder')}
      style={{ width: 200 }}
      data-testid="otp-code"
    />
  );
  const errorLine = error && (
    <Alert type="error" showIcon title={error} style={{ marginTop: 12 }} data-testid="otp-error" />
  );

  return (
    <div data-testid="otp-panel">
      <Typography.Paragraph>
        {t('profile.otp.state')}{' '}
        <Tag color={s.is_bound ? 'success' : 'default'} data-testid="otp-state">
          {s.is_bound ? t('profile.otp.isBound') : t('profile.otp.notBound')}
        </Tag>
        {s.mfa_force_enabled && <Tag color="warning">{t('profile.otp.forced')}</Tag>}
      </Typography.Paragraph>
      {!s.is_bound && !binding && (
        <Button type="primary" onClick={() => void start()} loading={busy} data-testid="otp-bind-start">
          {t('profile.otp.bind')}
        </Button>
      )}
      {binding && (
        <Form layout="vertical" onFinish={() => void submitCode('bind')}>
          <Typography.Paragraph type="secondary">{t('profile.otp.scanHint')}</Typography.Paragraph>
          <img src={binding.qr_code} alt={t('profile.otp.qrAlt')} width={200} height={200} data-testid="otp-qr" />
          <Typography.Paragraph type="secondary">
            {t('profile.otp.secret')}{' '}
            <Typography.Text code copyable data-testid="otp-secret">
              {binding.secret}
            </Typography.Text>
          </Typography.Paragraph>
          <Space>
            {codeInput}
            <Button type="primary" htmlType="submit" loading={busy} data-testid="otp-bind-confirm">
              {t('profile.otp.confirmBind')}
            </Button>
            <Button
              onClick={() => {
                setBinding(undefined);
                setError(undefined);
              }}
            >
              {t('profile.cancel')}
            </Button>
          </Space>
        </Form>
      )}
      {s.is_bound && (
        <Form layout="vertical" onFinish={() => void submitCode('unbind')}>
          <Typography.Paragraph type="secondary">{t('profile.otp.unbindHint')}</Typography.Paragraph>
          <Space>
            {codeInput}
            <Button danger htmlType="submit" loading={busy} data-testid="otp-unbind">
              {t('profile.otp.unbind')}
            </Button>
          </Space>
        </Form>
      )}
      {errorLine}
    </div>
  );
}
