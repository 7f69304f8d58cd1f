import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Card, Descriptions, Divider, Spin, Steps, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../lib/appStore.ts';
import { HttpError } from '../../lib/http.ts';
import { extractMessage } from '../../lib/httpErrors.ts';
import { OtpPanel } from './OtpPanel.tsx';
import { PasswordForm } from './PasswordForm.tsx';
import { fetchProfile, PROFILE_KEY, updateProfile } from './profileApi.ts';

/**
 * `/profile/improvement`, where the startup sends a user on their first login: set a new
 * password (local users), optionally bind an authenticator, then finish, which clears
 * is_first_login and opens the console.
 */
export function ImprovementPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const setState = useAppStore((s) => s.set);
  const stored = useAppStore((s) => s.profile);
  const profile = useQuery({ queryKey: PROFILE_KEY, queryFn: fetchProfile });
  const [passwordDone, setPasswordDone] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  if (profile.isLoading) return <Spin />;
  if (profile.isError)
    return (
      <Alert
        type="error"
        showIcon
        title={extractMessage((profile.error as HttpError).data) || t('session.error.unknown')}
      />
    );
  const p = profile.data!;
  const local = p.source?.value === 'local';
  const step = local && !passwordDone ? 0 : 1;

  const finish = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const fresh = await updateProfile({ is_first_login: false });
      // The banners read the stored profile: it now has the new password's date.
      if (stored)
        setState({
          profile: { ...stored, is_first_login: false, date_password_last_updated: fresh.date_password_last_updated },
        });
      void navigate('/', { replace: true });
    } catch (e) {
      setError((e instanceof HttpError && extractMessage(e.data)) || t('session.error.unknown'));
      setBusy(false);
    }
  };

  return (
    <Card title={t('profile.improvement.title')} data-testid="improvement-page" style={{ maxWidth: 760 }}>
      <Typography.Paragraph type="secondary">{t('profile.improvement.intro')}</Typography.Paragraph>
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'username', label: t('profile.field.username'), children: p.username },
          { key: 'name', label: t('profile.field.name'), children: p.name },
          { key: 'email', label: t('profile.field.email'), children: p.email || '-' },
        ]}
      />
      <Steps
        size="small"
        current={step}
        style={{ margin: '16px 0' }}
        items={[
          ...(local ? [{ title: t('profile.improvement.stepPassword') }] : []),
          { title: t('profile.improvement.stepMfa') },
        ]}
      />
      {step === 0 ? (
        <PasswordForm submitText={t('profile.improvement.savePassword')} onDone={() => setPasswordDone(true)} />
      ) : (
        <>
          {passwordDone && (
            <Alert type="success" showIcon title={t('profile.password.changed')} style={{ marginBottom: 16 }} />
          )}
          <Typography.Paragraph>{t('profile.improvement.mfaHint')}</Typography.Paragraph>
          <OtpPanel />
          <Divider />
          {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
          <Button type="primary" onClick={() => void finish()} loading={busy} data-testid="improvement-finish">
            {t('profile.improvement.finish')}
          </Button>
        </>
      )}
    </Card>
  );
}
