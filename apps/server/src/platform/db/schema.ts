/**
 * Table types. Conventions that keep one migration set valid on SQLite and PostgreSQL:
 * ids are text (uuid strings), datetimes are ISO-8601 UTC text, JSON is text, and booleans
 * come back as 0/1 from SQLite (read them with `toBool`).
 */
export type Bool = boolean | number;

export type {
  OrgTable,
  UserTable,
  RoleTable,
  RolePermissionTable,
  RoleBindingTable,
  SessionTable,
  SettingTable,
} from './tables/core.ts';
import type { CoreTables } from './tables/core.ts';
import type { UsersAuditTables } from './tables/usersAudit.ts';
import type { AuthTables } from './tables/auth.ts';
import type { AssetTables } from './tables/assets.ts';
import type { AuditTables } from './tables/audits.ts';
import type { AclTables } from './tables/acls.ts';
import type { AccountTables } from './tables/accounts.ts';
import type { TerminalTables } from './tables/terminal.ts';
import type { ProfileTables } from './tables/profile.ts';
import type { PermsTables } from './tables/perms.ts';
import type { NativeSshTables } from './tables/nativeSsh.ts';
import type { SessionAuditTables } from './tables/sessionAudit.ts';
import type { TicketsTables } from './tables/tickets.ts';
import type { UserLanguageTables } from './tables/userLanguage.ts';
import type { ImUserIdTables } from './tables/imUserIds.ts';
import type { OpsJobsTables } from './tables/opsJobs.ts';
import type { PlaybookTables } from './tables/playbooks.ts';
import type { SharedKeyTables } from './tables/sharedKeys.ts';
import type { CommandInputTables } from './tables/commandInput.ts';
import type { TerminalStorageTables } from './tables/terminalStorages.ts';
import type { MailOutboxTables, MsgSubscriptionTables } from './tables/notifications.ts';
import type { SystemTaskTables } from './tables/systemTasks.ts';
import type { CloudTables } from './tables/cloud.ts';
import type { AppletTables } from './tables/applets.ts';
import type { AutomationsTables } from './tables/automations.ts';

/**
 * Every table. Each area declares its tables in `tables/<area>.ts` and joins them here
 * (`CoreTables & AuthTables & ...`);
 * its migrations carry names in its own range (see migrations/index.ts).
 */
export type DB = CoreTables &
  UsersAuditTables &
  AuthTables &
  AssetTables &
  AuditTables &
  AclTables &
  AccountTables &
  TerminalTables &
  ProfileTables &
  PermsTables &
  NativeSshTables &
  SessionAuditTables &
  TicketsTables &
  UserLanguageTables &
  ImUserIdTables &
  OpsJobsTables &
  PlaybookTables &
  SharedKeyTables &
  CommandInputTables &
  TerminalStorageTables &
  MailOutboxTables &
  MsgSubscriptionTables &
  SystemTaskTables &
  CloudTables &
  AppletTables &
  AutomationsTables;

export function toBool(v: Bool | null | undefined): boolean {
  return v === true || v === 1;
}

let lastStamp = 0;

/**
 * The time a row is written, strictly increasing within this process: two rows written in the same
 * millisecond get stamps one millisecond apart, so "newest first" lists keep the order they were
 * written in instead of falling back on a random id.
 */
export function nowIso(): string {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return new Date(lastStamp).toISOString();
}
