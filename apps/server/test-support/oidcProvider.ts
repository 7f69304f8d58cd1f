import http from 'node:http';
import type { AddressInfo } from 'node:net';
import './oidcProviderTypes.ts';
import Provider, { type Configuration } from 'oidc-provider';

/**
 * A real OpenID provider (the `oidc-provider` package) on 127.0.0.1 for tests: its development
 * sign-in pages (any login name, the password is not checked: the provider's own test mode),
 * consent granted without asking, two clients: `gatehouse` (OpenID Connect, client_secret_basic)
 * and `gatehouse-oauth2` (used as a plain OAuth2 server, client_secret_post). Accounts have
 * `preferred_username`/`username` = their login, `name` "User <login>", `email` <login>@idp.test.
 */
export const OIDC_CLIENT = { id: 'gatehouse', secret: 'Oidc-client-secret-1' };
export const OAUTH2_CLIENT = { id: 'gatehouse-oauth2', secret: 'Oauth2-client-secret-1' };

export interface TestIdp {
  issuer: string;
  /** Follows the provider's pages from an authorization URL, signing in as `login`: the redirect back to us. */
  signIn(authorizationUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
}

export async function startOidcProvider(redirectBase: string): Promise<TestIdp> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const redirects = (path: string) => [`${redirectBase}${path}`];
  const config: Configuration = {
    clients: [
      {
        client_id: OIDC_CLIENT.id,
        client_secret: OIDC_CLIENT.secret,
        redirect_uris: redirects('/core/auth/openid/callback/'),
        post_logout_redirect_uris: redirects('/core/auth/login/'),
        token_endpoint_auth_method: 'client_secret_basic',
      },
      {
        client_id: OAUTH2_CLIENT.id,
        client_secret: OAUTH2_CLIENT.secret,
        redirect_uris: redirects('/core/auth/oauth2/callback/'),
        post_logout_redirect_uris: redirects('/core/auth/login/'),
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], profile: ['name', 'preferred_username', 'username'], email: ['email'] },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({ sub: id, preferred_username: id, username: id, name: `User ${id}`, email: `${id}@idp.test` }),
    }),
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    pkce: { required: () => false },
    cookies: { keys: ['test-idp-cookie-key'] },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600 },
    async loadExistingGrant(ctx) {
      const session = ctx.oidc.session;
      const clientId = ctx.oidc.client?.clientId;
      if (!session?.accountId || !clientId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId: session.accountId });
      grant.addOIDCScope('openid profile email');
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(issuer, config);
  server.on('request', provider.callback());

  async function signIn(authorizationUrl: string, login: string): Promise<URL> {
    const cookies = new Map<string, string>();
    const keep = (res: Response) => {
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair!.indexOf('=');
        cookies.set(pair!.slice(0, i), pair!.slice(i + 1));
      }
    };
    const cookie = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let url = new URL(authorizationUrl);
    let body: URLSearchParams | undefined;
    for (let hop = 0; hop < 20; hop++) {
      if (url.href.startsWith(redirectBase)) return url;
      const res = await fetch(url, {
        method: body ? 'POST' : 'GET',
        redirect: 'manual',
        headers: { cookie: cookie(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        ...(body ? { body: body.toString() } : {}),
      });
      keep(res);
      body = undefined;
      const location = res.headers.get('location');
      if (location) {
        url = new URL(location, url);
        continue;
      }
      const html = await res.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (!action) throw new Error(`the provider's page has no form (${res.status}): ${html.slice(0, 300)}`);
      url = new URL(action.replace(/&amp;/g, '&'), url);
      body = html.includes('name="login"')
        ? new URLSearchParams({ prompt: 'login', login, password: 'any' })
        : new URLSearchParams({ prompt: 'consent' });
    }
    throw new Error('the provider did not send the browser back');
  }

  return {
    issuer,
    signIn,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
