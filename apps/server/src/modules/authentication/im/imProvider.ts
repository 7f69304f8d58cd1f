import type { FastifyRequest } from 'fastify';

/**
 * One company messenger whose QR page signs users in (im/imRoutes.ts): its settings, its page,
 * and the user behind a code. Implemented by wecom.ts, dingtalk.ts and feishu.ts against each
 * provider's documented API.
 */
export type ImName = 'wecom' | 'dingtalk' | 'feishu';

/** The provider's settings by name ('' when unset), the sealed secret opened. */
export type ImConfig = (name: string) => string;

/** The person a code names: their id there (bound to `users_user.<name>_id`) and profile. */
export interface ImIdentity {
  id: string;
  username: string;
  name: string;
  email: string;
}

export interface ImProvider {
  name: ImName;
  idColumn: 'wecom_id' | 'dingtalk_id' | 'feishu_id';
  /** AUTH_WECOM…: the switch of the login page's button and of binding. */
  enabledSetting: string;
  secretSetting: string;
  /** The other settings the client reads. */
  fields: readonly string[];
  /** Without these (secret included) the provider is not configured. */
  required: readonly string[];
  label(c: ImConfig): string;
  authorizeUrl(c: ImConfig, redirectUri: string, state: string): string;
  /**
   * The provider's OAuth2 page for a sign-in inside its own client (no QR code; WeCom), whose
   * code `identify` takes like the QR page's; absent when the provider has none here.
   */
  inAppAuthorizeUrl?(c: ImConfig, redirectUri: string, state: string): string;
  /** A User-Agent of the provider's own client (the login page offers the in-app sign-in there). */
  inAppAgent?: RegExp;
  identify(req: FastifyRequest, c: ImConfig, code: string): Promise<ImIdentity>;
  /** Fetches the app's access token: the settings' test. */
  check(req: FastifyRequest, c: ImConfig): Promise<void>;
}
