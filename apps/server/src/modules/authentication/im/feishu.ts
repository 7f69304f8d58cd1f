import type { FastifyRequest } from 'fastify';
import { apiUrl, cachedToken, imCall, ImApiError, str } from './imApi.ts';
import type { ImConfig, ImIdentity, ImProvider } from './imProvider.ts';

/**
 * FeiShu (飞书) and Lark, their documented open API: the sign-in page
 * (`open-apis/authen/v1/index?app_id=&redirect_uri=&state=`), the app's token
 * (`POST open-apis/auth/v3/app_access_token/internal` {app_id, app_secret}: in the body) and the
 * user behind the code (`POST open-apis/authen/v1/access_token` with the app's token, answering
 * `data.user_id`, name and email). The base is FEISHU_ENDPOINT, else the public API of
 * FEISHU_VERSION.
 */
export const FEISHU_BASES = { feishu: 'https://open.feishu.cn', lark: 'https://open.larksuite.com' } as const;

const base = (c: ImConfig) =>
  c('FEISHU_ENDPOINT') || (c('FEISHU_VERSION') === 'lark' ? FEISHU_BASES.lark : FEISHU_BASES.feishu);

async function token(req: FastifyRequest, c: ImConfig): Promise<string> {
  return cachedToken(req, 'feishu', c('FEISHU_APP_ID'), c('FEISHU_APP_SECRET'), async () => {
    const a = await imCall(apiUrl(base(c), 'open-apis/auth/v3/app_access_token/internal'), {
      method: 'POST',
      body: { app_id: c('FEISHU_APP_ID'), app_secret: c('FEISHU_APP_SECRET') },
    });
    return { token: str(a.app_access_token), expiresIn: Number(a.expire) || 0 };
  });
}

export const FEISHU: ImProvider = {
  name: 'feishu',
  idColumn: 'feishu_id',
  enabledSetting: 'AUTH_FEISHU',
  secretSetting: 'FEISHU_APP_SECRET',
  fields: ['FEISHU_APP_ID', 'FEISHU_VERSION', 'FEISHU_ENDPOINT'],
  required: ['FEISHU_APP_ID', 'FEISHU_APP_SECRET'],
  label: (c) => (c('FEISHU_VERSION') === 'lark' ? 'Lark' : 'FeiShu'),
  authorizeUrl: (c, redirectUri, state) =>
    apiUrl(base(c), 'open-apis/authen/v1/index', { app_id: c('FEISHU_APP_ID'), redirect_uri: redirectUri, state }).href,
  async identify(req, c, code): Promise<ImIdentity> {
    const appToken = await token(req, c);
    const a = await imCall(apiUrl(base(c), 'open-apis/authen/v1/access_token'), {
      method: 'POST',
      headers: { authorization: `Bearer ${appToken}` },
      body: { grant_type: 'authorization_code', code },
    });
    const data = (a.data && typeof a.data === 'object' ? a.data : {}) as Record<string, unknown>;
    const userId = str(data.user_id);
    if (!userId) throw new ImApiError('not a member of the tenant (no user_id)');
    return {
      id: userId,
      username: userId,
      name: str(data.name) || str(data.en_name) || userId,
      email: str(data.email) || str(data.enterprise_email),
    };
  },
  async check(req, c) {
    await token(req, c);
  },
};
