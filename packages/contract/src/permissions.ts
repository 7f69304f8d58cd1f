import { BUILTIN_ROLE_IDS, type BuiltinRoleName } from './ids.ts';

/**
 * The permission catalogue: every object kind gets add/change/delete/view,
 * plus the custom codenames the contract lists. A permission is written `app.codename`.
 */
const CRUD = ['add', 'change', 'delete', 'view'] as const;

/** [app, model, actions] — actions default to CRUD. */
type ModelDef = readonly [app: string, model: string, actions?: readonly string[]];

const MODELS: readonly ModelDef[] = [
  ['users', 'user'],
  ['users', 'usergroup'],
  ['rbac', 'role'],
  ['rbac', 'systemrole'],
  ['rbac', 'orgrole'],
  ['rbac', 'rolebinding'],
  ['rbac', 'systemrolebinding'],
  ['rbac', 'orgrolebinding'],
  ['rbac', 'permission', ['view']],
  ['orgs', 'organization'],
  ['assets', 'asset'],
  ['assets', 'host'],
  ['assets', 'database'],
  ['assets', 'device'],
  ['assets', 'cloud'],
  ['assets', 'web'],
  ['assets', 'gpt'],
  ['assets', 'custom'],
  ['assets', 'gateway'],
  ['assets', 'domain'],
  ['assets', 'node'],
  ['assets', 'platform'],
  ['assets', 'label'],
  ['assets', 'favoriteasset'],
  ['accounts', 'account'],
  ['accounts', 'accounttemplate'],
  ['accounts', 'virtualaccount'],
  ['accounts', 'gatheredaccount'],
  ['accounts', 'pushaccountautomation'],
  ['accounts', 'gatheraccountsautomation'],
  ['accounts', 'changesecretautomation'],
  ['accounts', 'accountbackupautomation'],
  ['accounts', 'changesecretrecord'],
  ['perms', 'assetpermission'],
  ['acls', 'loginacl'],
  ['acls', 'loginassetacl'],
  ['acls', 'commandfilteracl'],
  ['acls', 'commandgroup'],
  ['acls', 'connectmethodacl'],
  ['terminal', 'terminal'],
  ['terminal', 'session'],
  ['terminal', 'command'],
  ['terminal', 'sessionsharing'],
  ['terminal', 'commandstorage'],
  ['terminal', 'replaystorage'],
  ['terminal', 'endpoint'],
  ['terminal', 'endpointrule'],
  ['terminal', 'applet'],
  ['terminal', 'applethost'],
  ['terminal', 'status'],
  ['terminal', 'task'],
  ['audits', 'userloginlog', ['view']],
  ['audits', 'operatelog', ['view']],
  ['audits', 'passwordchangelog', ['view']],
  ['audits', 'ftplog', ['view']],
  ['audits', 'activitylog', ['view']],
  ['audits', 'joblog', ['view']],
  ['audits', 'usersession', ['view']],
  ['ops', 'adhoc'],
  ['ops', 'playbook'],
  ['ops', 'job'],
  ['ops', 'jobexecution'],
  // change: run Gatehouse's own tasks again, switch periodic ones (Settings › Tasks); system only.
  ['ops', 'celerytask', ['view', 'change']],
  ['ops', 'celerytaskexecution', ['view']],
  ['tickets', 'ticket'],
  ['tickets', 'ticketflow'],
  ['tickets', 'superticket', ['view', 'add', 'change']],
  ['settings', 'setting'],
  ['xpack', 'account'],
  ['xpack', 'strategy'],
  ['xpack', 'syncinstancetask'],
  ['xpack', 'syncinstancetaskexecution', ['view', 'add']],
  ['notifications', 'sitemessage', ['view']],
  ['authentication', 'accesskey'],
  ['authentication', 'connectiontoken'],
  ['authentication', 'temptoken'],
  ['authentication', 'passkey'],
  ['authentication', 'superconnectiontoken'],
];

const CUSTOM: readonly string[] = [
  'rbac.view_console',
  'rbac.view_audit',
  'rbac.view_workbench',
  'rbac.view_webterminal',
  'rbac.view_filemanager',
  'orgs.view_rootorg',
  'orgs.view_alljoinedorg',
  'users.invite_user',
  'audits.offline_usersession',
  'users.remove_user',
  'users.match_user',
  'assets.refresh_assethardwareinfo',
  'assets.test_assetconnectivity',
  'assets.match_asset',
  'assets.change_assetnodes',
  'assets.match_node',
  'accounts.view_accountsecret',
  'accounts.view_historyaccount',
  'accounts.view_historyaccountsecret',
  'accounts.verify_account',
  'accounts.push_account',
  'accounts.view_accounttemplatesecret',
  'accounts.change_accounttemplatesecret',
  'accounts.view_changesecretexecution',
  'accounts.add_changesecretexection',
  'accounts.view_gatheraccountsexecution',
  'accounts.add_gatheraccountsexecution',
  'accounts.view_pushaccountexecution',
  'accounts.add_pushaccountexecution',
  'perms.view_myassets',
  'perms.view_userassets',
  'perms.view_usergroupassets',
  'authentication.expire_connectiontoken',
  'authentication.reuse_connectiontoken',
  'authentication.view_superconnectiontokensecret',
  'terminal.view_terminalconfig',
  'terminal.monitor_session',
  'terminal.share_session',
  'terminal.terminate_session',
  'terminal.validate_sessionactionperm',
  'terminal.view_sessionreplay',
  'terminal.upload_sessionreplay',
  'terminal.download_sessionreplay',
  'terminal.add_supersessionsharing',
  'ops.view_taskmonitor',
  'settings.change_email',
  'settings.change_auth',
  'settings.change_vault',
  'settings.change_systemmsgsubscription',
  'settings.change_sms',
  'settings.change_security',
  'settings.change_clean',
  'settings.change_interface',
  'settings.change_license',
  'settings.change_terminal',
  'settings.change_other',
];

function buildAll(): string[] {
  const out = new Set<string>();
  for (const [app, model, actions = CRUD] of MODELS) for (const a of actions) out.add(`${app}.${a}_${model}`);
  for (const c of CUSTOM) out.add(c);
  return [...out].sort();
}

/** Every permission of the catalogue, sorted. */
export const ALL_PERMISSIONS: readonly string[] = buildAll();

/**
 * Permissions that org roles can never hold (`only_system_permissions`).
 * Patterns are `app.action_model` with `*` wildcards.
 */
const ONLY_SYSTEM_PATTERNS: readonly string[] = [
  'assets.add_platform',
  'assets.change_platform',
  'assets.delete_platform',
  'users.delete_user',
  'rbac.*_role',
  'rbac.*_systemrole',
  'rbac.*_orgrole',
  'rbac.*_rolebinding',
  'rbac.*_systemrolebinding',
  'rbac.*_orgrolebinding',
  'orgs.*_organization',
  'settings.*',
  'tickets.*',
  'ops.view_taskmonitor',
  'ops.change_celerytask',
  'terminal.*_terminal',
  'terminal.*_commandstorage',
  'terminal.*_replaystorage',
  'terminal.*_status',
  'terminal.*_task',
  'terminal.*_endpoint',
  'terminal.*_endpointrule',
  'terminal.*_applet',
  'terminal.*_applethost',
  'authentication.*_accesskey',
  'authentication.*_superconnectiontoken',
  // The secret of a super connection token is a component's, never an org role's.
  'authentication.view_superconnectiontokensecret',
  'authentication.*_temptoken',
  'authentication.*_passkey',
  'orgs.view_rootorg',
  'acls.*_loginacl',
  'acls.*_connectmethodacl',
];

function patternToRegex(p: string): RegExp {
  const escaped = p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[a-z_]+');
  return new RegExp(`^${escaped}$`);
}

export function matchesAny(perm: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => patternToRegex(p).test(perm));
}

export function isOnlySystemPermission(perm: string): boolean {
  return matchesAny(perm, ONLY_SYSTEM_PATTERNS);
}

const USER_PERMS = [
  'rbac.view_workbench',
  'rbac.view_webterminal',
  'rbac.view_filemanager',
  'perms.view_myassets',
  'assets.match_asset',
  'assets.match_node',
  'ops.*_adhoc',
  'ops.*_playbook',
  'ops.*_job',
  'ops.*_jobexecution',
  'ops.view_celerytaskexecution',
];
const SYSTEM_USER_PERMS = [
  ...USER_PERMS,
  'authentication.add_connectiontoken',
  'authentication.view_connectiontoken',
  'authentication.reuse_connectiontoken',
  'authentication.expire_connectiontoken',
  'authentication.add_temptoken',
  'authentication.change_temptoken',
  'authentication.view_temptoken',
  'authentication.*_accesskey',
  'authentication.*_passkey',
  'tickets.view_ticket',
  'orgs.view_alljoinedorg',
];
const AUDITOR_PERMS = [
  'rbac.view_audit',
  'audits.view_*',
  'terminal.view_commandstorage',
  'terminal.view_sessionreplay',
  'terminal.download_sessionreplay',
  'terminal.view_session',
  'terminal.view_command',
];

export type RoleScope = 'system' | 'org';

export interface BuiltinRoleDef {
  id: string;
  name: BuiltinRoleName;
  scope: RoleScope;
  /** Admin roles hold every permission of their scope. */
  admin: boolean;
  permissions: readonly string[];
}

function select(patterns: readonly string[], scope: RoleScope): string[] {
  return ALL_PERMISSIONS.filter((p) => matchesAny(p, patterns) && (scope === 'system' || !isOnlySystemPermission(p)));
}

function allFor(scope: RoleScope): string[] {
  return ALL_PERMISSIONS.filter((p) => scope === 'system' || !isOnlySystemPermission(p));
}

export const BUILTIN_ROLES: readonly BuiltinRoleDef[] = [
  {
    id: BUILTIN_ROLE_IDS.SystemAdmin,
    name: 'SystemAdmin',
    scope: 'system',
    admin: true,
    permissions: allFor('system'),
  },
  {
    id: BUILTIN_ROLE_IDS.SystemAuditor,
    name: 'SystemAuditor',
    scope: 'system',
    admin: false,
    permissions: select([...SYSTEM_USER_PERMS, ...AUDITOR_PERMS, 'orgs.view_rootorg'], 'system'),
  },
  {
    id: BUILTIN_ROLE_IDS.User,
    name: 'User',
    scope: 'system',
    admin: false,
    permissions: select(SYSTEM_USER_PERMS, 'system'),
  },
  {
    id: BUILTIN_ROLE_IDS.SystemComponent,
    name: 'SystemComponent',
    scope: 'system',
    admin: false,
    permissions: allFor('system').filter(
      (p) => p !== 'users.add_user' && p !== 'users.delete_user' && !p.startsWith('rbac.'),
    ),
  },
  { id: BUILTIN_ROLE_IDS.OrgAdmin, name: 'OrgAdmin', scope: 'org', admin: true, permissions: allFor('org') },
  {
    id: BUILTIN_ROLE_IDS.OrgAuditor,
    name: 'OrgAuditor',
    scope: 'org',
    admin: false,
    permissions: select([...USER_PERMS, ...AUDITOR_PERMS], 'org'),
  },
  { id: BUILTIN_ROLE_IDS.OrgUser, name: 'OrgUser', scope: 'org', admin: false, permissions: select(USER_PERMS, 'org') },
];

/**
 * Whether a set of held permissions satisfies a requirement: a list means all must hold; an item
 * containing `|` means any one of its parts.
 */
export function hasPermission(
  held: ReadonlySet<string> | readonly string[],
  required: string | readonly string[],
): boolean {
  const set = held instanceof Set ? held : new Set(held as readonly string[]);
  const items = typeof required === 'string' ? [required] : required;
  return items.every((item) => {
    if (item === '*' || item === '') return true;
    return item
      .split('|')
      .map((s) => s.trim())
      .some((p) => set.has(p));
  });
}

/** Display names of the builtin roles (the i18n keys of the JumpServer API). */
export const BUILTIN_ROLE_LABELS: Readonly<Record<BuiltinRoleName, { en: string; zh: string; ja: string }>> = {
  SystemAdmin: { en: 'System administrator', zh: '系统管理员', ja: 'システム管理者' },
  SystemAuditor: { en: 'System auditor', zh: '系统审计员', ja: 'システム監査人' },
  User: { en: 'User', zh: '用户', ja: 'ユーザー' },
  SystemComponent: { en: 'System component', zh: '系统组件', ja: 'システムコンポーネント' },
  OrgAdmin: { en: 'Organization administrator', zh: '组织管理员', ja: '組織管理者' },
  OrgAuditor: { en: 'Organization auditor', zh: '组织审计员', ja: '組織監査人' },
  OrgUser: { en: 'Organization user', zh: '组织用户', ja: '組織ユーザー' },
};

/**
 * Integer ids for permissions, as the contract's APIs use (Django Permission ids): a 31-bit FNV-1a
 * hash of `app.codename`, stable whatever else the catalogue gains (a test checks no two collide).
 */
export function permissionId(perm: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < perm.length; i++) {
    h ^= perm.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) & 0x7fffffff;
}

const BY_ID = new Map(ALL_PERMISSIONS.map((p) => [permissionId(p), p]));

export function permissionById(id: number): string | undefined {
  return BY_ID.get(id);
}

/** Permissions a role of this scope can hold (org roles never hold system-only ones). */
export function grantablePermissions(scope: RoleScope): string[] {
  return ALL_PERMISSIONS.filter((p) => scope === 'system' || !isOnlySystemPermission(p));
}
