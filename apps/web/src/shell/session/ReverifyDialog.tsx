import { useEffect, useState } from 'react';
import { Alert, Button, Form, Input, Modal, Radio, Space, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { encryptSecret } from '../../lib/crypto.ts';
import { http } from '../../lib/http.ts';
import { extractMessage } from '../../lib/httpErrors.ts';
import { HttpError } from '../../lib/http.ts';
import { logout } from '../../app/session.ts';
import {
  CONFIRM_URL,
  MFA_SELECT_URL,
  SMS_RESEND_SECONDS,
  secretIsValid,
  useReverifyStore,
  type ConfirmChoice,
  type ConfirmInfo,
} from './reverifyStore.ts';

/** The dialog's own calls never open it again. */
const own = { noConfirm: true } as const;

function useCountdown(): [number, () => void] {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const id = window.setTimeout(() => setLeft((l) => l - 1), 1000);
    return () => window.clearTimeout(id);
  }, [left]);
  return [left, () => setLeft(SMS_RESEND_SECONDS)];
}

/**
 * Re-verification: the confirm type the server chose, then a
 * password, an MFA code (OTP 6 digits; SMS with a 60 s resend countdown) or a new sign-in. The
 * call that asked for it is sent again once confirmed.
 */
export function ReverifyDialog() {
  const { t } = useTranslation();
  const type = useReverifyStore((s) => s.type);
  const finish = useReverifyStore((s) => s.finish);
  const [info, setInfo] = useState<ConfirmInfo>();
  const [fatal, setFatal] = useState<string>();
  const [error, setError] = useState<string>();
  const [mfaType, setMfaType] = useState<string>();
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [smsLeft, startSms] = useCountdown();

  useEffect(() => {
    setInfo(undefined);
    setFatal(undefined);
    setError(undefined);
    setSecret('');
    if (!type) return;
    let cancelled = false;
    void (async () => {
      let got: ConfirmInfo;
      try {
        got = await http.get<ConfirmInfo>(CONFIRM_URL, { params: { confirm_type: type }, ...own });
      } catch {
        if (!cancelled) setFatal(t('session.reverify.mfaError'));
        return;
      }
      if (cancelled) return;
      if (got.confirm_type === 'relogin') {
        // A recent sign-in is enough: try it before asking for anything.
        try {
          await http.post(CONFIRM_URL, { confirm_type: 'relogin', secret_key: '' }, own);
          if (!cancelled) finish(true);
          return;
        } catch {
          if (!cancelled) setFatal(t('session.reverify.reloginExpired'));
          return;
        }
      }
      const choices = Array.isArray(got.content) ? got.content : [];
      setMfaType(choices.find((c) => !c.disabled)?.name);
      setInfo(got);
    })();
    return () => {
      cancelled = true;
    };
  }, [type, finish, t]);

  const choices: ConfirmChoice[] = info && Array.isArray(info.content) ? info.content : [];
  const isMfa = info?.confirm_type === 'mfa';

  const submit = async () => {
    if (!info) return;
    if (!secretIsValid(info.confirm_type, mfaType, secret)) {
      setError(isMfa ? t('session.reverify.mfaError') : t('session.reverify.passwordRequired'));
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const body = {
        confirm_type: info.confirm_type,
        ...(isMfa ? { mfa_type: mfaType } : {}),
        secret_key: isMfa ? secret.trim() : await encryptSecret(secret),
      };
      await http.post(CONFIRM_URL, body, own);
      finish(true);
    } catch (e) {
      setError((e instanceof HttpError && extractMessage(e.data)) || t('session.reverify.failed'));
    } finally {
      setBusy(false);
    }
  };

  const sendSms = async () => {
    setError(undefined);
    try {
      await http.post(MFA_SELECT_URL, { type: 'sms' }, own);
      startSms();
    } catch (e) {
      setError((e instanceof HttpError && extractMessage(e.data)) || t('session.reverify.failed'));
    }
  };

  const relogin = () => {
    try {
      logout();
    } catch {
      /* leaving */
    }
  };

  const footer = fatal
    ? [
        <Button key="cancel" onClick={() => finish(false)}>
          {t('session.cancel')}
        </Button>,
        <Button key="relogin" type="primary" onClick={relogin}>
          {t('session.relogin')}
        </Button>,
      ]
    : [
        <Button key="cancel" onClick={() => finish(false)}>
          {t('session.cancel')}
        </Button>,
        <Button
          key="ok"
          type="primary"
          loading={busy}
          disabled={!info}
          onClick={() => void submit()}
          data-testid="reverify-submit"
        >
          {t('session.reverify.confirm')}
        </Button>,
      ];

  return (
    <Modal
      open={Boolean(type)}
      title={t('session.reverify.title')}
      width="36%"
      style={{ top: '3vh', minWidth: 360 }}
      onCancel={() => finish(false)}
      footer={footer}
      destroyOnHidden
    >
      <div data-testid="reverify-dialog">
        {fatal && <Alert type="warning" showIcon title={fatal} />}
        {!fatal && !info && <Spin />}
        {info && (
          <Form layout="vertical" onFinish={() => void submit()}>
            {isMfa && choices.length > 1 && (
              <Form.Item label={t('session.reverify.method')}>
                <Radio.Group
                  value={mfaType}
                  onChange={(e) => {
                    setMfaType(e.target.value as string);
                    setSecret('');
                  }}
                >
                  {choices.map((c) => (
                    <Radio key={c.name} value={c.name} disabled={c.disabled}>
                      {c.display_name}
                    </Radio>
                  ))}
                </Radio.Group>
              </Form.Item>
            )}
            <Form.Item
              label={isMfa ? t('session.reverify.code') : t('session.reverify.password')}
              validateStatus={error ? 'error' : undefined}
              help={error}
            >
              {isMfa ? (
                <Space.Compact style={{ width: '100%' }}>
                  <Input
                    value={secret}
                    onChange={(e) => setSecret(e.target.value)}
                    placeholder={choices.find((c) => c.name === mfaType)?.placeholder}
                    maxLength={mfaType === 'otp' ? 6 : 16}
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    autoFocus
                    data-testid="reverify-secret"
                  />
                  {mfaType === 'sms' && (
                    <Button disabled={smsLeft > 0} onClick={() => void sendSms()}>
                      {smsLeft > 0
                        ? t('session.reverify.resendIn', { seconds: smsLeft })
                        : t('session.reverify.sendCode')}
                    </Button>
                  )}
                </Space.Compact>
              ) : (
                <Input.Password
                  value={secret}
                  onChange={(e) => setSecret(e.target.value)}
                  autoComplete="current-password"
                  autoFocus
                  data-testid="reverify-secret"
                />
              )}
            </Form.Item>
          </Form>
        )}
      </div>
    </Modal>
  );
}
