import { Card, Space, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../lib/appStore.ts';
import { SettingsForm } from './SettingsForm.tsx';
import {
  ANNOUNCEMENT_PAGE,
  AUTH_PAGE,
  BASIC_PAGE,
  CAS_PAGE,
  CLEAN_PAGE,
  DINGTALK_PAGE,
  FEISHU_PAGE,
  WECOM_PAGE,
  EMAIL_CONTENT_PAGE,
  EMAIL_PAGE,
  LDAP_PAGE,
  OAUTH2_PAGE,
  OIDC_PAGE,
  OPS_PAGE,
  PASSKEY_PAGE,
  RADIUS_PAGE,
  SAML2_PAGE,
  SECURITY_PAGE,
  SMS_BACKEND_PAGES,
  SMS_PAGE,
  TICKET_PAGE,
  VAULT_PAGE,
  type SettingsPageDef,
} from './settingsPages.ts';
import { SubscriptionTable } from './SubscriptionTable.tsx';
import { LdapTools } from './LdapTools.tsx';
import { SettingsActions } from './SettingsActions.tsx';

/** Settings › Basic: the site URL and the help links of the navbar. */
export function BasicSettingsPage() {
  return <SettingsForm page={BASIC_PAGE} />;
}

/** Settings › Security: password, authentication and MFA, session, login limit. */
export function SecuritySettingsPage() {
  return <SettingsForm page={SECURITY_PAGE} />;
}

/** Settings › Cleaning: how many days each kind of record is kept (modules/ops/retention.ts). */
export function CleaningSettingsPage() {
  return <SettingsForm page={CLEAN_PAGE} />;
}

/** A messenger's tab: its app settings and the button that fetches an app token with them. */
function imTab(page: SettingsPageDef, label: string, testLabel: string) {
  return {
    key: page.category,
    label,
    children: (
      <SettingsForm
        page={page}
        actions={(form) => (
          <SettingsActions
            form={form}
            result="im-result"
            actions={[
              {
                id: `${page.category}-test`,
                label: testLabel,
                url: `/api/v1/settings/${page.category}/testing/`,
              },
            ]}
          />
        )}
      />
    ),
  };
}

/**
 * Settings › Authentication, tabs in the console reference's order: Basic, LDAP, CAS, Passkey
 * (superusers only: its category is, contract §4.18), OIDC, SAML2, OAuth2, WeCom, DingTalk,
 * FeiShu, Radius.
 */
export function AuthSettingsPage() {
  const { t } = useTranslation();
  const superuser = useAppStore((s) => Boolean(s.profile?.is_superuser));
  return (
    <Card>
      <Tabs
        items={[
          { key: 'basic', label: t('settings.ldap.tabBasic'), children: <SettingsForm page={AUTH_PAGE} /> },
          {
            key: 'ldap',
            label: t('settings.ldap.tabLdap'),
            children: <SettingsForm page={LDAP_PAGE} actions={(form) => <LdapTools form={form} />} />,
          },
          { key: 'cas', label: t('settings.ldap.tabCas'), children: <SettingsForm page={CAS_PAGE} /> },
          ...(superuser
            ? [{ key: 'passkey', label: t('settings.ldap.tabPasskey'), children: <SettingsForm page={PASSKEY_PAGE} /> }]
            : []),
          { key: 'oidc', label: t('settings.ldap.tabOidc'), children: <SettingsForm page={OIDC_PAGE} /> },
          { key: 'saml2', label: t('settings.ldap.tabSaml2'), children: <SettingsForm page={SAML2_PAGE} /> },
          { key: 'oauth2', label: t('settings.ldap.tabOauth2'), children: <SettingsForm page={OAUTH2_PAGE} /> },
          imTab(WECOM_PAGE, t('settings.ldap.tabWecom'), t('settings.ldap.testIm')),
          imTab(DINGTALK_PAGE, t('settings.ldap.tabDingtalk'), t('settings.ldap.testIm')),
          imTab(FEISHU_PAGE, t('settings.ldap.tabFeishu'), t('settings.ldap.testIm')),
          { key: 'radius', label: t('settings.ldap.tabRadius'), children: <SettingsForm page={RADIUS_PAGE} /> },
        ]}
      />
    </Card>
  );
}

/** Messages › SMS: the switch and backend, then each backend's settings with its test (settings.change_sms). */
function SmsSettings() {
  const { t } = useTranslation();
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="large">
      <SettingsForm page={SMS_PAGE} />
      <Tabs
        tabPosition="left"
        items={SMS_BACKEND_PAGES.map((page) => ({
          key: page.category,
          label: t(`settings.section.${page.category}`),
          children: (
            <SettingsForm
              page={page}
              actions={(form) => (
                <SettingsActions
                  form={form}
                  result="sms-test-result"
                  actions={[
                    {
                      id: `sms-test-${page.category}`,
                      label: t('settings.msg.testSms'),
                      url: `/api/v1/settings/sms/${page.category}/testing/`,
                    },
                  ]}
                />
              )}
            />
          ),
        }))}
      />
    </Space>
  );
}

/** Settings › Messages: Email (the SMTP server with its test, the new user's mail), SMS and Subscription. */
export function MessagesSettingsPage() {
  const { t } = useTranslation();
  const canSms = useAppStore((s) => hasPermission(s.perms, 'settings.change_sms'));
  return (
    <Card>
      <Tabs
        items={[
          {
            key: 'email',
            label: t('settings.msg.tabEmail'),
            children: (
              <Space direction="vertical" style={{ width: '100%' }} size="large">
                <SettingsForm
                  page={EMAIL_PAGE}
                  actions={(form) => (
                    <SettingsActions
                      form={form}
                      result="mail-test-result"
                      actions={[
                        { id: 'mail-test', label: t('settings.msg.testMail'), url: '/api/v1/settings/mail/testing/' },
                      ]}
                    />
                  )}
                />
                <SettingsForm page={EMAIL_CONTENT_PAGE} />
              </Space>
            ),
          },
          ...(canSms ? [{ key: 'sms', label: t('settings.msg.tabSms'), children: <SmsSettings /> }] : []),
          { key: 'subscription', label: t('settings.msg.tabSubscription'), children: <SubscriptionTable /> },
        ]}
      />
    </Card>
  );
}

/** Settings › Features: the announcement banner, tickets, the job centre, Vault (settings.change_vault). */
export function FeaturesSettingsPage() {
  const { t } = useTranslation();
  const canVault = useAppStore((s) => hasPermission(s.perms, 'settings.change_vault'));
  return (
    <Card>
      <Tabs
        items={[
          {
            key: 'announcement',
            label: t('settings.features.tabAnnouncement'),
            children: <SettingsForm page={ANNOUNCEMENT_PAGE} />,
          },
          { key: 'ticket', label: t('settings.features.tabTicket'), children: <SettingsForm page={TICKET_PAGE} /> },
          { key: 'ops', label: t('settings.features.tabOps'), children: <SettingsForm page={OPS_PAGE} /> },
          ...(canVault
            ? [
                {
                  key: 'vault',
                  label: t('settings.features.tabVault'),
                  children: (
                    <SettingsForm
                      page={VAULT_PAGE}
                      actions={(form) => (
                        <SettingsActions
                          form={form}
                          result="vault-result"
                          actions={[
                            {
                              id: 'vault-test',
                              label: t('settings.features.testVault'),
                              url: '/api/v1/settings/vault/testing/',
                            },
                            {
                              id: 'vault-sync',
                              label: t('settings.features.syncVault'),
                              url: '/api/v1/settings/vault/sync/',
                              withValues: false,
                            },
                          ]}
                        />
                      )}
                    />
                  ),
                },
              ]
            : []),
        ]}
      />
    </Card>
  );
}
