import { hasPermission, licenseIsValid, LOGOUT_PATH, type PublicSettings } from '@gatehouse/contract';

/**
 * The navbar gates of the console and what the help and account menus offer. An entry that leads
 * to a console page is offered only when that page is built (`hasRoute`): no links to nothing.
 */
export interface GateContext {
  perms: ReadonlySet<string> | readonly string[];
  settings: PublicSettings | null;
  hasRoute(path: string): boolean;
}

export const TICKETS_PATH = '/tickets/assigned-tickets';
export const SETTINGS_PATH = '/settings';

export interface NavbarGates {
  webTerminal: boolean;
  tickets: boolean;
  settings: boolean;
}

export function navbarGates(ctx: GateContext): NavbarGates {
  const s = ctx.settings;
  return {
    webTerminal: hasPermission(ctx.perms, 'rbac.view_webterminal'),
    tickets:
      hasPermission(ctx.perms, 'tickets.view_ticket') &&
      licenseIsValid(s) &&
      Boolean(s?.TICKETS_ENABLED) &&
      ctx.hasRoute(TICKETS_PATH),
    settings: hasPermission(ctx.perms, 'settings.view_setting') && ctx.hasRoute(SETTINGS_PATH),
  };
}

/** The web terminal opens on the same host, with a timestamp so the browser never reuses a stale tab. */
export function webTerminalUrl(now: number = Date.now()): string {
  return `/luna/?_=${now}`;
}

export type AccountEntryId = 'profile' | 'apiKey' | 'tempPassword' | 'connectionToken' | 'logout';

export interface AccountEntry {
  id: AccountEntryId;
  /** Translation key. */
  label: string;
  /** Console path, or the logout address. */
  to: string;
}

const ACCOUNT_ENTRIES: readonly (AccountEntry & { allowed(ctx: GateContext): boolean })[] = [
  { id: 'profile', label: 'shell.account.profile', to: '/profile', allowed: () => true },
  {
    id: 'apiKey',
    label: 'shell.account.apiKey',
    to: '/profile/key',
    allowed: (c) => hasPermission(c.perms, 'authentication.view_accesskey'),
  },
  {
    id: 'tempPassword',
    label: 'shell.account.tempPassword',
    to: '/profile/temp-password',
    allowed: (c) => hasPermission(c.perms, 'authentication.view_temptoken') && Boolean(c.settings?.AUTH_TEMP_TOKEN),
  },
  {
    id: 'connectionToken',
    label: 'shell.account.connectionToken',
    to: '/profile/connection-token',
    allowed: (c) => hasPermission(c.perms, 'authentication.view_connectiontoken'),
  },
];

/** Profile, API key, temp password and connection token when permitted and built; Logout always. */
export function accountEntries(ctx: GateContext): AccountEntry[] {
  const pages = ACCOUNT_ENTRIES.filter((e) => e.allowed(ctx) && ctx.hasRoute(e.to)).map(({ id, label, to }) => ({
    id,
    label,
    to,
  }));
  return [...pages, { id: 'logout', label: 'common.logout', to: LOGOUT_PATH }];
}

export type HelpEntryId = 'docs' | 'support' | 'enterprise' | 'about';

/** Docs and Support when their addresses are set; Enterprise edition only without a valid licence; About. */
export function helpEntries(settings: PublicSettings | null): HelpEntryId[] {
  const out: HelpEntryId[] = [];
  if (settings?.HELP_DOCUMENT_URL) out.push('docs');
  if (settings?.HELP_SUPPORT_URL) out.push('support');
  if (!licenseIsValid(settings)) out.push('enterprise');
  out.push('about');
  return out;
}

/** The unread badge shows at most 99. */
export const MESSAGE_BADGE_MAX = 99;
