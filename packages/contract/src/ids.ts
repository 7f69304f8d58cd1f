/** Fixed identifiers of the JumpServer v3.7.1 contract. */
export const ROOT_ORG_ID = '00000000-0000-0000-0000-000000000000';
export const DEFAULT_ORG_ID = '00000000-0000-0000-0000-000000000002';
export const SYSTEM_ORG_ID = '00000000-0000-0000-0000-000000000004';
export const INTERNAL_ORG_IDS: readonly string[] = [ROOT_ORG_ID, DEFAULT_ORG_ID, SYSTEM_ORG_ID];

export const DEFAULT_ORG_NAME = 'DEFAULT';
export const SYSTEM_ORG_NAME = 'SYSTEM';
export const GLOBAL_ORG_NAME = 'GLOBAL';

const builtinRoleId = (n: number): string => `00000000-0000-0000-0000-00000000000${n}`;

export const BUILTIN_ROLE_IDS = {
  SystemAdmin: builtinRoleId(1),
  SystemAuditor: builtinRoleId(2),
  User: builtinRoleId(3),
  SystemComponent: builtinRoleId(4),
  OrgAdmin: builtinRoleId(5),
  OrgAuditor: builtinRoleId(6),
  OrgUser: builtinRoleId(7),
} as const;

export type BuiltinRoleName = keyof typeof BUILTIN_ROLE_IDS;

/** The system administrator is recognised by a role id ending in 1. */
export function isSystemAdminRoleId(id: string): boolean {
  return id === BUILTIN_ROLE_IDS.SystemAdmin;
}
