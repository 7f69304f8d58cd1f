import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * A local stand-in of the three company messengers' documented APIs (none can be reached from
 * here), on one loopback server, each part checking the app's credentials the way its provider
 * documents it, independently of the product's code:
 * - WeCom: the QR page `wwlogin/sso/login`, the OAuth2 page used inside WeCom's own client
 *   (`connect/oauth2/authorize`, `scope=snsapi_base`, `response_type=code`; a browser that is not
 *   WeCom's client (no `wxwork` in its User-Agent) is refused, as WeCom does), `GET cgi-bin/gettoken?corpid&corpsecret`,
 *   `GET cgi-bin/auth/getuserinfo?access_token&code` (`userid`), `GET cgi-bin/user/get`;
 * - DingTalk: the QR page `connect/oauth2/sns_authorize`, `POST sns/getuserinfo_bycode` signed
 *   by accessKey/timestamp/signature (base64 HMAC-SHA256 of the timestamp under the app secret),
 *   `GET gettoken?appkey&appsecret`, `POST topapi/user/getbyunionid`, `POST topapi/v2/user/get`;
 * - FeiShu: the page `open-apis/authen/v1/index`, `POST open-apis/auth/v3/app_access_token/internal`,
 *   `POST open-apis/authen/v1/access_token` (the app's token as Bearer) answering `data.user_id`.
 * Its "QR pages" stand for the person scanning: they send the browser straight back with a
 * one-time code for the person named in `next[provider]`. Errors are answered as the providers do
 * (errcode/errmsg or code/msg with HTTP 200).
 */
export type ImName = 'wecom' | 'dingtalk' | 'feishu';
export interface ImPerson {
  id: string;
  name: string;
  email: string;
}

export const IM_APPS = {
  wecom: { corpid: 'ww-test-corp', agentid: '1000002', secret: 'wecom-app-secret' },
  dingtalk: { appkey: 'ding-test-app', agentid: '2000001', appsecret: 'ding-app-secret' },
  feishu: { app_id: 'cli_test_app', app_secret: 'feishu-app-secret' },
} as const;

export interface ImStandIn {
  url: string;
  people: Record<ImName, Map<string, ImPerson>>;
  /** Who "scans" next at each provider's page. */
  next: Record<ImName, string>;
  /** `METHOD path` of every API call, in order (the tests check no secret travels where it should not). */
  calls: { method: string; url: string; body: string }[];
  close(): Promise<void>;
}

const tokens = new Map<string, ImName>();
const token = (p: ImName) => {
  const t = `${p}-tok-${randomBytes(8).toString('hex')}`;
  tokens.set(t, p);
  return t;
};
const eq = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export async function startImStandIn(): Promise<ImStandIn> {
  const people: ImStandIn['people'] = { wecom: new Map(), dingtalk: new Map(), feishu: new Map() };
  const next: ImStandIn['next'] = { wecom: '', dingtalk: '', feishu: '' };
  const calls: ImStandIn['calls'] = [];
  /** code → person id, once. */
  const codes = new Map<string, { provider: ImName; id: string }>();
  const issue = (provider: ImName) => {
    const code = randomBytes(12).toString('hex');
    codes.set(code, { provider, id: next[provider] });
    return code;
  };
  const useCode = (provider: ImName, code: string) => {
    const c = codes.get(code);
    codes.delete(code);
    return c?.provider === provider ? people[provider].get(c.id) : undefined;
  };
  const tokenOk = (p: ImName, t: string | null | undefined) => Boolean(t) && tokens.get(t!) === p;

  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://standin');
      const q = (k: string) => url.searchParams.get(k) ?? '';
      calls.push({ method: req.method!, url: req.url!, body });
      const json = (o: unknown) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(o));
      };
      const back = (provider: ImName, redirect: string) => {
        const to = new URL(redirect);
        to.searchParams.set('code', issue(provider));
        to.searchParams.set('state', q('state'));
        res.writeHead(302, { location: to.href });
        res.end();
      };
      const b = (() => {
        try {
          return JSON.parse(body || '{}') as Record<string, string>;
        } catch {
          return {};
        }
      })();
      const W = IM_APPS.wecom;
      const D = IM_APPS.dingtalk;
      const F = IM_APPS.feishu;
      switch (url.pathname) {
        // ---- WeCom
        case '/wwlogin/sso/login':
          if (q('appid') !== W.corpid || q('agentid') !== W.agentid || q('login_type') !== 'CorpApp')
            return json({ errcode: 40013, errmsg: 'invalid corpid' });
          return back('wecom', q('redirect_uri'));
        case '/connect/oauth2/authorize':
          if (
            q('appid') !== W.corpid ||
            q('agentid') !== W.agentid ||
            q('scope') !== 'snsapi_base' ||
            q('response_type') !== 'code'
          )
            return json({ errcode: 40013, errmsg: 'invalid appid' });
          if (!/wxwork/i.test(req.headers['user-agent'] ?? ''))
            return json({ errcode: 50001, errmsg: 'please open in wecom client' });
          return back('wecom', q('redirect_uri'));
        case '/cgi-bin/gettoken':
          if (q('corpid') !== W.corpid || !eq(q('corpsecret'), W.secret))
            return json({ errcode: 40001, errmsg: 'invalid credential' });
          return json({ errcode: 0, errmsg: 'ok', access_token: token('wecom'), expires_in: 7200 });
        case '/cgi-bin/auth/getuserinfo': {
          if (!tokenOk('wecom', q('access_token'))) return json({ errcode: 40014, errmsg: 'invalid access_token' });
          const person = useCode('wecom', q('code'));
          if (!person) return json({ errcode: 40029, errmsg: 'invalid code' });
          return json({ errcode: 0, errmsg: 'ok', userid: person.id });
        }
        case '/cgi-bin/user/get': {
          if (!tokenOk('wecom', q('access_token'))) return json({ errcode: 40014, errmsg: 'invalid access_token' });
          const person = people.wecom.get(q('userid'));
          if (!person) return json({ errcode: 60111, errmsg: 'userid not found' });
          return json({ errcode: 0, errmsg: 'ok', userid: person.id, name: person.name, email: person.email });
        }
        // ---- DingTalk
        case '/connect/oauth2/sns_authorize':
          if (q('appid') !== D.appkey || q('scope') !== 'snsapi_login')
            return json({ errcode: 40013, errmsg: 'invalid appid' });
          return back('dingtalk', q('redirect_uri'));
        case '/sns/getuserinfo_bycode': {
          const expected = createHmac('sha256', D.appsecret).update(q('timestamp')).digest('base64');
          if (q('accessKey') !== D.appkey || !eq(q('signature'), expected))
            return json({ errcode: 853001, errmsg: 'signature mismatch' });
          if (Math.abs(Date.now() - Number(q('timestamp'))) > 60_000)
            return json({ errcode: 853002, errmsg: 'timestamp expired' });
          const person = useCode('dingtalk', b.tmp_auth_code ?? '');
          if (!person) return json({ errcode: 40078, errmsg: 'tmp_auth_code not exist' });
          return json({
            errcode: 0,
            errmsg: 'ok',
            user_info: { nick: person.name, unionid: `u-${person.id}`, openid: 'o' },
          });
        }
        case '/gettoken':
          if (q('appkey') !== D.appkey || !eq(q('appsecret'), D.appsecret))
            return json({ errcode: 40089, errmsg: 'invalid appkey or appsecret' });
          return json({ errcode: 0, errmsg: 'ok', access_token: token('dingtalk'), expires_in: 7200 });
        case '/topapi/user/getbyunionid': {
          if (req.method !== 'POST' || !tokenOk('dingtalk', q('access_token')))
            return json({ errcode: 40014, errmsg: 'invalid access_token' });
          const id = (b.unionid ?? '').replace(/^u-/, '');
          if (!people.dingtalk.has(id)) return json({ errcode: 60121, errmsg: 'user not found' });
          return json({ errcode: 0, errmsg: 'ok', result: { contact_type: 0, userid: id } });
        }
        case '/topapi/v2/user/get': {
          if (req.method !== 'POST' || !tokenOk('dingtalk', q('access_token')))
            return json({ errcode: 40014, errmsg: 'invalid access_token' });
          const person = people.dingtalk.get(b.userid ?? '');
          if (!person) return json({ errcode: 60121, errmsg: 'user not found' });
          return json({
            errcode: 0,
            errmsg: 'ok',
            result: { userid: person.id, name: person.name, email: person.email },
          });
        }
        // ---- FeiShu
        case '/open-apis/authen/v1/index':
          if (q('app_id') !== F.app_id) return json({ code: 20001, msg: 'invalid app_id' });
          return back('feishu', q('redirect_uri'));
        case '/open-apis/auth/v3/app_access_token/internal':
          if (req.method !== 'POST' || b.app_id !== F.app_id || !eq(b.app_secret ?? '', F.app_secret))
            return json({ code: 10014, msg: 'app secret invalid' });
          return json({ code: 0, msg: 'ok', app_access_token: token('feishu'), expire: 7200 });
        case '/open-apis/authen/v1/access_token': {
          const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
          if (req.method !== 'POST' || !tokenOk('feishu', bearer))
            return json({ code: 99991663, msg: 'invalid app token' });
          const person = b.grant_type === 'authorization_code' ? useCode('feishu', b.code ?? '') : undefined;
          if (!person) return json({ code: 20003, msg: 'invalid code' });
          return json({
            code: 0,
            msg: 'success',
            data: {
              access_token: 'u-token',
              user_id: person.id,
              open_id: 'ou_x',
              name: person.name,
              email: person.email,
            },
          });
        }
        default:
          res.statusCode = 404;
          res.end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    people,
    next,
    calls,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
