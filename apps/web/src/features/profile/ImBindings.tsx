import { useEffect } from 'react';
import { App, Button, Space, Tag } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { http } from '../../lib/http.ts';
import { useAppStore } from '../../lib/appStore.ts';
import { PROFILE_KEY, type FullProfile } from './profileApi.ts';

/**
 * The messenger bindings of the profile's quick actions (WeCom, DingTalk, FeiShu, those enabled):
 * Bind re-verifies the user (`GET /api/v1/authentication/confirm-oauth/`, the HTTP client opens the
 * dialog) and goes to `/core/auth/<x>/qr/bind/`, which comes back here with `?im_bind=<x>&result=`;
 * Unbind is `POST /api/v1/authentication/<x>/qr/unbind/` (re-verified the same way).
 */
const PROVIDERS = [
  { name: 'wecom', setting: 'AUTH_WECOM', field: 'wecom_id', label: 'WeCom' },
  { name: 'dingtalk', setting: 'AUTH_DINGTALK', field: 'dingtalk_id', label: 'DingTalk' },
  { name: 'feishu', setting: 'AUTH_FEISHU', field: 'feishu_id', label: 'FeiShu' },
] as const;
const RESULTS = ['confirm', 'disabled', 'state_invalid', 'provider_failed', 'taken', 'other_bound'] as const;

export function ImBindings({ profile }: { profile: FullProfile }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const publicSettings = useAppStore((s) => s.publicSettings);
  const [params, setParams] = useSearchParams();
  const nameOf = (n: string) => t(`settings.ldap.tab${n[0]!.toUpperCase()}${n.slice(1)}`);

  // The answer of a binding that came back from the provider.
  useEffect(() => {
    const provider = params.get('im_bind');
    const result = params.get('result');
    if (!provider || !result) return;
    const name = nameOf(provider);
    if (result === 'ok')
      void message.success(<span data-testid="im-bind-result">{t('profile.im.bindOk', { name })}</span>);
    else {
      const reason = (RESULTS as readonly string[]).includes(result) ? t(`profile.im.bindResult.${result}`) : result;
      void message.error(<span data-testid="im-bind-result">{t('profile.im.bindFailed', { name, reason })}</span>);
    }
    setParams({}, { replace: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per answer in the address
  }, [params]);

  const enabled = PROVIDERS.filter((p) => publicSettings?.[p.setting] === true);
  if (enabled.length === 0) return null;
  const bind = async (name: string) => {
    await http.get('/api/v1/authentication/confirm-oauth/');
    window.location.assign(`/core/auth/${name}/qr/bind/?redirect_url=${encodeURIComponent('/ui/profile/info')}`);
  };
  const unbind = async (name: string) => {
    await http.post(`/api/v1/authentication/${name}/qr/unbind/`, {});
    void message.success(t('profile.im.unbindDone', { name: nameOf(name) }));
    await queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
  };
  return (
    <Space direction="vertical" data-testid="im-bindings">
      {enabled.map((p) => {
        const bound = Boolean(profile[p.field]);
        const name = nameOf(p.name);
        return (
          <Space key={p.name}>
            <Tag
              color={bound ? 'success' : 'default'}
            >{`${name}: ${bound ? t('profile.im.bound') : t('profile.im.notBound')}`}</Tag>
            {bound ? (
              <Button
                size="small"
                onClick={() => void unbind(p.name).catch(() => undefined)}
                data-testid={`unbind-${p.name}`}
              >
                {t('profile.im.unbind', { name })}
              </Button>
            ) : (
              <Button
                size="small"
                type="link"
                onClick={() => void bind(p.name).catch(() => undefined)}
                data-testid={`bind-${p.name}`}
              >
                {t('profile.im.bind', { name })}
              </Button>
            )}
          </Space>
        );
      })}
    </Space>
  );
}
