import LoginOutlined from '@ant-design/icons-svg/es/asn/LoginOutlined';
import type { SsoMethod } from '@gatehouse/contract';
import { h, icon } from './dom.ts';
import { openSettings } from './loginApi.ts';
import { addLoginMethod } from './loginMethods.ts';

/**
 * A button per identity provider the server has on (public settings `SSO_METHODS`: OpenID Connect,
 * OAuth2…), with the provider's logo where the settings give one. It is a link to the server's
 * login route of that provider with the page's `next`; the server makes `next` safe and sends the
 * browser to the provider, whose callback ends on `next` (or on this page with `?error=`).
 */
export function ssoHref(method: Pick<SsoMethod, 'url'>, next: string | null): string {
  return next ? `${method.url}?next=${encodeURIComponent(next)}` : method.url;
}

addLoginMethod(({ t, next }) => {
  const box = h('div', { class: 'gh-sso-methods', 'data-testid': 'sso-methods' });
  box.hidden = true;
  void openSettings().then((s) => {
    const methods = s?.SSO_METHODS ?? [];
    box.replaceChildren(
      ...methods.map((m) => {
        const logo = m.logo ? h('img', { src: m.logo, alt: '', class: 'gh-sso-logo' }) : icon(LoginOutlined);
        return h(
          'a',
          {
            class: 'gh-btn gh-btn-default gh-btn-lg gh-btn-block',
            href: ssoHref(m, next),
            'data-testid': `sso-${m.name}`,
          },
          logo,
          h('span', {}, t('ssoWith', { name: m.label })),
        );
      }),
    );
    box.hidden = methods.length === 0;
  });
  return box;
});
