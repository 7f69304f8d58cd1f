import { createHmac } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { apiUrl, cachedToken, imCall, ImApiError, str } from './imApi.ts';
import type { ImConfig, ImIdentity, ImProvider } from './imProvider.ts';

/**
 * DingTalk (钉钉), its documented server API (the one JumpServer uses): the QR sign-in page
 * (`connect/oauth2/sns_authorize?appid=<app key>&response_type=code&scope=snsapi_login&state=…&redirect_uri=…`),
 * the person behind the temporary code (`POST sns/getuserinfo_bycode?accessKey=&timestamp=&signature=`,
 * the signature base64 HMAC-SHA256 of the timestamp under the app secret: the secret never travels),
 * the app's access token (`GET gettoken?appkey=&appsecret=`), the member by union id
 * (`POST topapi/user/getbyunionid`, `result.userid`; someone outside the organisation is refused)
 * and the member's details (`POST topapi/v2/user/get`: name, email).
 */
async function token(req: FastifyRequest, c: ImConfig): Promise<string> {
  return cachedToken(req, 'dingtalk', c('DINGTALK_APPKEY'), c('DINGTALK_APPSECRET'), async () => {
    const a = await imCall(
      apiUrl(c('DINGTALK_ENDPOINT'), 'gettoken', { appkey: c('DINGTALK_APPKEY'), appsecret: c('DINGTALK_APPSECRET') }),
    );
    return { token: str(a.access_token), expiresIn: Number(a.expires_in) || 0 };
  });
}

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

export const DINGTALK: ImProvider = {
  name: 'dingtalk',
  idColumn: 'dingtalk_id',
  enabledSetting: 'AUTH_DINGTALK',
  secretSetting: 'DINGTALK_APPSECRET',
  fields: ['DINGTALK_AGENTID', 'DINGTALK_APPKEY', 'DINGTALK_ENDPOINT'],
  required: ['DINGTALK_APPKEY', 'DINGTALK_APPSECRET'],
  label: () => 'DingTalk',
  authorizeUrl: (c, redirectUri, state) =>
    apiUrl(c('DINGTALK_ENDPOINT'), 'connect/oauth2/sns_authorize', {
      appid: c('DINGTALK_APPKEY'),
      response_type: 'code',
      scope: 'snsapi_login',
      state,
      redirect_uri: redirectUri,
    }).href,
  async identify(req, c, code): Promise<ImIdentity> {
    const timestamp = String(Date.now());
    const signature = createHmac('sha256', c('DINGTALK_APPSECRET')).update(timestamp).digest('base64');
    const person = await imCall(
      apiUrl(c('DINGTALK_ENDPOINT'), 'sns/getuserinfo_bycode', {
        accessKey: c('DINGTALK_APPKEY'),
        timestamp,
        signature,
      }),
      { method: 'POST', body: { tmp_auth_code: code } },
    );
    const unionid = str(obj(person.user_info).unionid);
    if (!unionid) throw new ImApiError('no unionid in the answer');
    const accessToken = await token(req, c);
    const member = await imCall(
      apiUrl(c('DINGTALK_ENDPOINT'), 'topapi/user/getbyunionid', { access_token: accessToken }),
      {
        method: 'POST',
        body: { unionid },
      },
    );
    const userid = str(obj(member.result).userid);
    if (!userid) throw new ImApiError('not a member of the organisation (no userid)');
    const detail = obj(
      (
        await imCall(apiUrl(c('DINGTALK_ENDPOINT'), 'topapi/v2/user/get', { access_token: accessToken }), {
          method: 'POST',
          body: { userid },
        })
      ).result,
    );
    return {
      id: userid,
      username: userid,
      name: str(detail.name) || str(obj(person.user_info).nick) || userid,
      email: str(detail.email) || str(detail.org_email),
    };
  },
  async check(req, c) {
    await token(req, c);
  },
};
