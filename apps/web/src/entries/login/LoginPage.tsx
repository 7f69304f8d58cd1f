import { useEffect, useState } from 'react';
import { Alert, Button, Card, Checkbox, Form, Input, Segmented, Typography } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LOGIN_PATH, type Language, type PublicOpenSettings } from '@gatehouse/contract';
import { encryptSecret } from '../../lib/crypto.ts';
import { LANGUAGE_NAMES, changeLanguage, currentLanguage } from '../../lib/i18n/index.ts';
import styles from './LoginPage.module.css';
import { LOGIN_OTP_START_URL, postJson, type LoginAnswer, type OtpBinding } from './loginApi.ts';
import { MfaStep } from './MfaStep.tsx';
import { OtpBindStep } from './OtpBindStep.tsx';
import { PasskeyButton } from './PasskeyButton.tsx';

interface Values {
  username: string;
  password: string;
  auto_login: boolean;
}

/** Sends the credentials, the password encrypted with the page's key. */
async function submitLogin(values: Values, next: string | null): Promise<LoginAnswer> {
  return postJson<LoginAnswer>(LOGIN_PATH, { ...values, password: await encryptSecret(values.password), next });
}

type Step = { kind: 'password' } | { kind: 'mfa'; choices: string[] } | { kind: 'bind'; binding: OtpBinding };

export function LoginPage({ onLanguage }: { onLanguage: (l: Language) => void }) {
  const { t } = useTranslation();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [title, setTitle] = useState('Gatehouse');
  const [passkey, setPasskey] = useState(false);
  const [step, setStep] = useState<Step>({ kind: 'password' });
  const next = new URLSearchParams(window.location.search).get('next');

  useEffect(() => {
    fetch('/api/v1/settings/public/open/')
      .then((r) => (r.ok ? (r.json() as Promise<PublicOpenSettings>) : undefined))
      .then((s) => {
        if (s?.INTERFACE.login_title) setTitle(s.INTERFACE.login_title);
        setPasskey(Boolean(s?.AUTH_PASSKEY));
      })
      .catch(() => undefined);
  }, []);

  useEffect(() => {
    document.title = `${t('login.title')} - ${title}`;
  }, [t, title]);

  const onFinish = async (values: Values) => {
    setBusy(true);
    setError(undefined);
    try {
      const result = await submitLogin(values, next);
      if (result.ok) {
        window.location.assign(result.next ?? '/ui/');
        return;
      }
      if (result.error === 'mfa_required') {
        setStep({ kind: 'mfa', choices: result.data?.choices ?? ['otp'] });
      } else if (result.error === 'mfa_unset') {
        const binding = await postJson<OtpBinding & LoginAnswer>(LOGIN_OTP_START_URL, {});
        if (binding.qr_code) setStep({ kind: 'bind', binding });
        else setError(binding.msg ?? result.msg);
      } else {
        setError(result.msg ?? result.error);
      }
    } catch {
      setError(t('login.networkError'));
    }
    setBusy(false);
  };

  const done = (target: string) => window.location.assign(target);
  const back = () => {
    setError(undefined);
    setStep({ kind: 'password' });
  };

  return (
    <div className={styles.page}>
      <Card className={styles.card}>
        <div className={styles.brand}>
          <img src="/ui/logo.svg" alt="" width={40} height={40} />
          <div>
            <Typography.Title level={3} className={styles.title}>
              {title}
            </Typography.Title>
            <Typography.Text type="secondary">{t('login.subtitle')}</Typography.Text>
          </div>
        </div>
        {error && (
          <Alert type="error" showIcon title={error} className={styles.error} role="alert" data-testid="login-error" />
        )}
        {step.kind === 'mfa' && <MfaStep choices={step.choices} onDone={done} onError={setError} onBack={back} />}
        {step.kind === 'bind' && <OtpBindStep binding={step.binding} onDone={done} onError={setError} onBack={back} />}
        {step.kind === 'password' && (
          <Form<Values>
            layout="vertical"
            onFinish={onFinish}
            initialValues={{ auto_login: false }}
            requiredMark={false}
          >
            <Form.Item
              name="username"
              label={t('login.username')}
              rules={[{ required: true, whitespace: true, message: t('login.usernameRequired') }]}
            >
              <Input prefix={<UserOutlined />} autoComplete="username" autoFocus size="large" />
            </Form.Item>
            <Form.Item
              name="password"
              label={t('login.password')}
              rules={[{ required: true, message: t('login.passwordRequired') }]}
            >
              <Input.Password prefix={<LockOutlined />} autoComplete="current-password" size="large" />
            </Form.Item>
            <Form.Item name="auto_login" valuePropName="checked">
              <Checkbox>{t('login.autoLogin')}</Checkbox>
            </Form.Item>
            <Button type="primary" htmlType="submit" size="large" block loading={busy}>
              {t('login.submit')}
            </Button>
          </Form>
        )}
        {step.kind === 'password' && passkey && <PasskeyButton next={next} onError={setError} />}
        <div className={styles.languages}>
          <Segmented<Language>
            size="small"
            value={currentLanguage()}
            options={(Object.keys(LANGUAGE_NAMES) as Language[]).map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
            onChange={(l) => void changeLanguage(l).then(() => onLanguage(l))}
          />
        </div>
      </Card>
    </div>
  );
}
