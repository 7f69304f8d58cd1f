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
  UserLanguageTables;

export function toBool(v: Bool | null | undefined): boolean {
  return v === true || v === 1;
}

export function nowIso(): string {
  return new Date().toISOString();
}
