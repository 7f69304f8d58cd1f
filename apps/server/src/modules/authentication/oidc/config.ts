import * as client from 'openid-client';
import type { SettingsStore } from '../../settings/store.ts';
import { SSO_TIMEOUT_SECONDS } from '../sso/ssoSite.ts';

/** The OIDC settings (Settings › Auth › OIDC) as the sign-in uses them. */
export interface OidcSettings {
  clientId: string;
  scopes: string;
  maxAgeSeconds: number;
  useNonce: boolean;
  pkce: boolean;
  challengeMethod: 'S256' | 'plain';
  shareSession: boolean;
  attrMap: Record<string, string>;
}

const str = async (settings: SettingsStore, name: string) => String((await settings.valueOf(name)) ?? '').trim();

export async function loadOidcSettings(settings: SettingsStore): Promise<OidcSettings> {
  const map = await settings.valueOf('AUTH_OPENID_USER_ATTR_MAP');
  return {
    clientId: await str(settings, 'AUTH_OPENID_CLIENT_ID'),
    scopes: (await str(settings, 'AUTH_OPENID_SCOPES')) || 'openid',
    maxAgeSeconds: Number(await settings.valueOf('AUTH_OPENID_ID_TOKEN_MAX_AGE')) || 60,
    useNonce: Boolean(await settings.valueOf('AUTH_OPENID_USE_NONCE')),
    pkce: Boolean(await settings.valueOf('AUTH_OPENID_PKCE')),
    challengeMethod: (await str(settings, 'AUTH_OPENID_CODE_CHALLENGE_METHOD')) === 'plain' ? 'plain' : 'S256',
    shareSession: Boolean(await settings.valueOf('AUTH_OPENID_SHARE_SESSION')),
    attrMap:
      typeof map === 'object' && map !== null ? (map as Record<string, string>) : { username: 'preferred_username' },
  };
}

/**
 * The openid-client configuration: Keycloak (AUTH_OPENID_SERVER_URL + `/realms/<realm>`, by its
 * discovery document), explicit endpoints (when the authorization and token endpoints are set; the
 * issuer is AUTH_OPENID_PROVIDER_ENDPOINT), or else the discovery document of that issuer. Plain
 * http endpoints are allowed (an administrator's choice, e.g. a provider on the same host); the ID
 * token's signature is always checked against the provider's JWKS.
 */
export async function oidcConfiguration(settings: SettingsStore): Promise<client.Configuration> {
  const clientId = await str(settings, 'AUTH_OPENID_CLIENT_ID');
  const secret = await settings.secret('AUTH_OPENID_CLIENT_SECRET');
  const auth =
    (await str(settings, 'AUTH_OPENID_CLIENT_AUTH_METHOD')) === 'client_secret_post'
      ? client.ClientSecretPost(secret)
      : client.ClientSecretBasic(secret);
  const metadata: Partial<client.ClientMetadata> = {
    id_token_signed_response_alg: (await str(settings, 'AUTH_OPENID_PROVIDER_SIGNATURE_ALG')) || 'RS256',
  };
  const keycloak = Boolean(await settings.valueOf('AUTH_OPENID_KEYCLOAK'));
  const authorization = await str(settings, 'AUTH_OPENID_PROVIDER_AUTHORIZATION_ENDPOINT');
  const token = await str(settings, 'AUTH_OPENID_PROVIDER_TOKEN_ENDPOINT');
  let issuer = await str(settings, 'AUTH_OPENID_PROVIDER_ENDPOINT');
  if (keycloak) {
    const server = (await str(settings, 'AUTH_OPENID_SERVER_URL')).replace(/\/+$/, '');
    issuer = `${server}/realms/${encodeURIComponent(await str(settings, 'AUTH_OPENID_REALM_NAME'))}`;
  }
  let config: client.Configuration;
  if (!keycloak && authorization && token) {
    const optional = async (name: string) => (await str(settings, name)) || undefined;
    config = new client.Configuration(
      {
        issuer,
        authorization_endpoint: authorization,
        token_endpoint: token,
        jwks_uri: await optional('AUTH_OPENID_PROVIDER_JWKS_ENDPOINT'),
        userinfo_endpoint: await optional('AUTH_OPENID_PROVIDER_USERINFO_ENDPOINT'),
        end_session_endpoint: await optional('AUTH_OPENID_PROVIDER_END_SESSION_ENDPOINT'),
      },
      clientId,
      metadata,
      auth,
    );
    if ([issuer, authorization, token].some((u) => u.startsWith('http:'))) client.allowInsecureRequests(config);
  } else {
    const insecure = issuer.startsWith('http:');
    config = await client.discovery(new URL(issuer), clientId, metadata, auth, {
      timeout: SSO_TIMEOUT_SECONDS,
      ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
    });
  }
  config.timeout = SSO_TIMEOUT_SECONDS;
  // openid-client trusts an ID token from the token endpoint on TLS alone (OIDC Core 3.1.3.7) and
  // does not check its signature; here endpoints may be plain http, so the signature is checked.
  if (config.serverMetadata().jwks_uri) client.enableNonRepudiationChecks(config);
  return config;
}
