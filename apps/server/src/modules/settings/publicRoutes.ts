import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PublicOpenSettings, PublicSettings, SsoMethod } from '@gatehouse/contract';
import { currentLicence } from '../xpack/licenceRoutes.ts';
import { interfaceOpen } from '../xpack/interface/interfaceRoutes.ts';
import { describeValues } from './settingLabels.ts';

/** What modules above this one add to the public settings (given at registration). */
export interface PublicSettingsSources {
  /** The login page's provider buttons (modules/authentication/sso/ssoMethods.ts). */
  ssoMethods(req: FastifyRequest): Promise<SsoMethod[]>;
}

const NO_SOURCES: PublicSettingsSources = { ssoMethods: async () => [] };

/** Public settings (`public/open/` and `public/`). */
async function openSettings(req: FastifyRequest, sources: PublicSettingsSources): Promise<PublicOpenSettings> {
  const s = req.server.deps.settings;
  return {
    XPACK_ENABLED: true,
    INTERFACE: await interfaceOpen(req),
    AUTH_PASSKEY: Boolean(await s.get('AUTH_PASSKEY')),
    SSO_METHODS: await sources.ssoMethods(req),
  };
}

async function publicSettings(req: FastifyRequest, sources: PublicSettingsSources): Promise<PublicSettings> {
  const s = req.server.deps.settings;
  const names = [
    'OLD_PASSWORD_HISTORY_LIMIT_COUNT',
    'TICKET_AUTHORIZE_DEFAULT_TIME',
    'TICKET_AUTHORIZE_DEFAULT_TIME_UNIT',
    'SECURITY_MAX_IDLE_TIME',
    'SECURITY_VIEW_AUTH_NEED_MFA',
    'SECURITY_MFA_VERIFY_TTL',
    'SECURITY_COMMAND_EXECUTION',
    'SECURITY_COMMAND_BLACKLIST',
    'SECURITY_PASSWORD_EXPIRATION_TIME',
    'SECURITY_LUNA_REMEMBER_AUTH',
    'SECURITY_WATERMARK_ENABLED',
    'SESSION_EXPIRE_AT_BROWSER_CLOSE',
    'SECURITY_SESSION_SHARE',
    'HELP_DOCUMENT_URL',
    'HELP_SUPPORT_URL',
    'AUTH_PASSKEY',
    'AUTH_WECOM',
    'AUTH_DINGTALK',
    'AUTH_FEISHU',
    'AUTH_TEMP_TOKEN',
    'ANNOUNCEMENT_ENABLED',
    'ANNOUNCEMENT',
    'TICKETS_ENABLED',
    'CONNECTION_TOKEN_REUSABLE',
  ] as const;
  const values: Record<string, unknown> = {};
  for (const n of names) values[n] = await s.get(n);
  const rule = [
    'SECURITY_PASSWORD_MIN_LENGTH',
    'SECURITY_ADMIN_USER_PASSWORD_MIN_LENGTH',
    'SECURITY_PASSWORD_UPPER_CASE',
    'SECURITY_PASSWORD_LOWER_CASE',
    'SECURITY_PASSWORD_NUMBER',
    'SECURITY_PASSWORD_SPECIAL_CHAR',
  ] as const;
  const PASSWORD_RULE: Record<string, number | boolean> = {};
  for (const n of rule) PASSWORD_RULE[n] = await s.get(n);
  const licence = await currentLicence(req);
  return {
    ...(await openSettings(req, sources)),
    ...values,
    XPACK_LICENSE_IS_VALID: licence.valid,
    XPACK_LICENSE_INFO: {
      corporation: licence.payload?.corporation ?? '',
      edition: licence.payload?.edition ?? '',
      date_expired: licence.payload?.expired ?? '',
      asset_count: licence.payload?.asset_count ?? 0,
    },
    PASSWORD_RULE,
    WINDOWS_SKIP_ALL_MANUAL_PASSWORD: false,
    AUTH_LDAP_SYNC_ORG_IDS: [],
    TERMINAL_RAZOR_ENABLED: false,
    TERMINAL_MAGNUS_ENABLED: false,
    TERMINAL_KOKO_SSH_ENABLED: true,
    TERMINAL_OMNIDB_ENABLED: false,
    CACHE_LOGIN_PASSWORD_ENABLED: false,
    VAULT_ENABLED: false,
  } as unknown as PublicSettings;
}

export function registerPublicSettingsRoutes(app: FastifyInstance, sources = NO_SOURCES): void {
  app.get('/api/v1/settings/public/open/', { config: { public: true } }, (req) => openSettings(req, sources));
  const describe = async (req: FastifyRequest) =>
    describeValues('public', (await publicSettings(req, sources)) as unknown as Record<string, unknown>);
  app.get('/api/v1/settings/public/', { config: { describe } }, (req) => publicSettings(req, sources));
}
