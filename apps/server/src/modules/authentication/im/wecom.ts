import type { FastifyRequest } from 'fastify';
import { apiUrl, cachedToken, imCall, ImApiError, str } from './imApi.ts';
import type { ImConfig, ImIdentity, ImProvider } from './imProvider.ts';

/**
 * WeCom (企业微信), its documented server API: the web QR sign-in page
 * (`<login>/wwlogin/sso/login?login_type=CorpApp&appid=<corp id>&agentid=…&redirect_uri=…&state=…`),
 * the corp's access token (`GET cgi-bin/gettoken?corpid=&corpsecret=`: WeCom takes the secret
 * only in the URL), the member behind a sign-in code (`GET cgi-bin/auth/getuserinfo`, `userid`;
 * a visitor from outside the corp has none and is refused) and the member's details
 * (`GET cgi-bin/user/get`: name, email). Inside WeCom's own client (User-Agent `wxwork`) the
 * sign-in needs no QR code: the OAuth2 page (`<oauth>/connect/oauth2/authorize?appid=<corp id>
 * &redirect_uri=…&response_type=code&scope=snsapi_base&state=…&agentid=…#wechat_redirect`) answers
 * with a code that `cgi-bin/auth/getuserinfo` takes the same way.
 */
async function token(req: FastifyRequest, c: ImConfig): Promise<string> {
  return cachedToken(req, 'wecom', c('WECOM_CORPID'), c('WECOM_SECRET'), async () => {
    const a = await imCall(
      apiUrl(c('WECOM_ENDPOINT'), 'cgi-bin/gettoken', { corpid: c('WECOM_CORPID'), corpsecret: c('WECOM_SECRET') }),
    );
    return { token: str(a.access_token), expiresIn: Number(a.expires_in) || 0 };
  });
}

export const WECOM: ImProvider = {
  name: 'wecom',
  idColumn: 'wecom_id',
  enabledSetting: 'AUTH_WECOM',
  secretSetting: 'WECOM_SECRET',
  fields: ['WECOM_CORPID', 'WECOM_AGENTID', 'WECOM_ENDPOINT', 'WECOM_LOGIN_ENDPOINT', 'WECOM_OAUTH_ENDPOINT'],
  required: ['WECOM_CORPID', 'WECOM_AGENTID', 'WECOM_SECRET'],
  label: () => 'WeCom',
  authorizeUrl: (c, redirectUri, state) =>
    apiUrl(c('WECOM_LOGIN_ENDPOINT'), 'wwlogin/sso/login', {
      login_type: 'CorpApp',
      appid: c('WECOM_CORPID'),
      agentid: c('WECOM_AGENTID'),
      redirect_uri: redirectUri,
      state,
    }).href,
  inAppAuthorizeUrl(c, redirectUri, state) {
    const url = apiUrl(c('WECOM_OAUTH_ENDPOINT'), 'connect/oauth2/authorize', {
      appid: c('WECOM_CORPID'),
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'snsapi_base',
      state,
      agentid: c('WECOM_AGENTID'),
    });
    url.hash = 'wechat_redirect';
    return url.href;
  },
  inAppAgent: /wxwork/i,
  async identify(req, c, code): Promise<ImIdentity> {
    const accessToken = await token(req, c);
    const who = await imCall(
      apiUrl(c('WECOM_ENDPOINT'), 'cgi-bin/auth/getuserinfo', { access_token: accessToken, code }),
    );
    const userid = str(who.userid ?? who.UserId);
    if (!userid) throw new ImApiError('not a member of the corp (no userid)');
    const detail = await imCall(apiUrl(c('WECOM_ENDPOINT'), 'cgi-bin/user/get', { access_token: accessToken, userid }));
    return {
      id: userid,
      username: userid,
      name: str(detail.name) || userid,
      email: str(detail.email) || str(detail.biz_mail),
    };
  },
  async check(req, c) {
    await token(req, c);
  },
};
