import { Alert, App, Card, Spin, Tabs } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type HttpError } from '../../lib/http.ts';
import { extractMessage } from '../../lib/httpErrors.ts';
import { useActiveTab } from '../../resource/useActiveTab.ts';
import { OtpPanel } from './OtpPanel.tsx';
import { PasswordForm } from './PasswordForm.tsx';
import { ProfileForm } from './ProfileForm.tsx';
import { PublicKeyForm } from './PublicKeyForm.tsx';
import { fetchProfile, PROFILE_KEY } from './profileApi.ts';

const TABS = ['profile', 'password', 'mfa', 'publicKey'] as const;

/** `/profile/setting`: the profile fields, the password (local users), the authenticator and the SSH public key. */
export function ProfileSettingPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const profile = useQuery({ queryKey: PROFILE_KEY, queryFn: fetchProfile });
  const local = profile.data?.source?.value === 'local';
  const tabs = TABS.filter((k) => k !== 'password' || local);
  const [active, choose] = useActiveTab(tabs, 'profile');
  if (profile.isLoading) return <Spin />;
  if (profile.isError)
    return (
      <Alert
        type="error"
        showIcon
        title={extractMessage((profile.error as HttpError).data) || t('session.error.unknown')}
      />
    );
  const items = [
    { key: 'profile', label: t('profile.tab.profile'), children: <ProfileForm profile={profile.data!} /> },
    ...(local
      ? [
          {
            key: 'password',
            label: t('profile.tab.password'),
            children: <PasswordForm onDone={() => void message.success(t('profile.password.changed'))} />,
          },
        ]
      : []),
    { key: 'mfa', label: t('profile.tab.mfa'), children: <OtpPanel /> },
    { key: 'publicKey', label: t('profile.tab.publicKey'), children: <PublicKeyForm /> },
  ];
  return (
    <Card data-testid="profile-setting">
      <Tabs activeKey={active} onChange={choose} items={items} />
    </Card>
  );
}
