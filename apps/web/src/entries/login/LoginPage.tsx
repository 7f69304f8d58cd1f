import { useEffect, useState } from 'react';
import { Alert, Button, Card, Checkbox, Form, Input, Segmented, Typography } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CSRF_HEADER, LOGIN_PATH, type Language, type LoginResult, type PublicOpenSettings } from '@gatehouse/contract';
import { csrfToken } from '../../lib/http.ts';
import { LANGUAGE_NAMES, changeLanguage, currentLanguage } from '../../lib/i18n/index.ts';
import styles from './LoginPage.module.css';

interface Values {
  username: string;
  password: string;
  auto_login: boolean;
}

/** Sends the credentials to the login endpoint; the answer says where to go or what was wrong. */
async function submitLogin(values: Values, next: string | null): Promise<LoginResult> {
  const res = await fetch(LOGIN_PATH, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', [CSRF_HEADER]: csrfToken() ?? '' },
    body: JSON.stringify({ ...values, next }),
  });
  return (await res.json()) as LoginResult;
}

export function LoginPage({ onLanguage }: { onLanguage: (l: Language) => void }) {
  const { t } = useTranslation();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [title, setTitle] = useState('Gatehouse');
  const next = new URLSearchParams(window.location.search).get('next');

  useEffect(() => {
    fetch('/api/v1/settings/public/open/')
      .then((r) => (r.ok ? (r.json() as Promise<PublicOpenSettings>) : undefined))
      .then((s) => s?.INTERFACE.login_title && setTitle(s.INTERFACE.login_title))
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
      setError(result.msg ?? result.error);
    } catch {
      setError(t('login.networkError'));
    }
    setBusy(false);
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
        {error && <Alert type="error" showIcon title={error} className={styles.error} role="alert" data-testid="login-error" />}
        <Form<Values> layout="vertical" onFinish={onFinish} initialValues={{ auto_login: false }} requiredMark={false}>
          <Form.Item name="username" label={t('login.username')} rules={[{ required: true, whitespace: true, message: t('login.usernameRequired') }]}>
            <Input prefix={<UserOutlined />} autoComplete="username" autoFocus size="large" />
          </Form.Item>
          <Form.Item name="password" label={t('login.password')} rules={[{ required: true, message: t('login.passwordRequired') }]}>
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" size="large" />
          </Form.Item>
          <Form.Item name="auto_login" valuePropName="checked">
            <Checkbox>{t('login.autoLogin')}</Checkbox>
          </Form.Item>
          <Button type="primary" htmlType="submit" size="large" block loading={busy}>
            {t('login.submit')}
          </Button>
        </Form>
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
