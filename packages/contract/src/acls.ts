/**
 * Access-control rule constants shared by the server and the console.
 * Priority 1-100, the lower the value the earlier a rule applies.
 */
export const ACL_PRIORITY_MIN = 1;
export const ACL_PRIORITY_MAX = 100;
export const ACL_PRIORITY_DEFAULT = 50;

export type AclKind = 'loginacl' | 'loginassetacl' | 'commandfilteracl' | 'connectmethodacl';

/** The actions each kind of rule offers (login rules have no warning; connect-method rules only reject). */
export const ACL_ACTIONS: Readonly<Record<AclKind, readonly ('reject' | 'accept' | 'review' | 'warning')[]>> = {
  loginacl: ['reject', 'accept', 'review'],
  loginassetacl: ['reject', 'accept', 'review', 'warning'],
  commandfilteracl: ['reject', 'accept', 'review', 'warning'],
  connectmethodacl: ['reject'],
};

/**
 * Connect method values a connect-method rule can name, as the original stores them: the web and
 * native methods of its terminal components, the graphical protocols by name (`rdp`, `vnc`) and the
 * remote-app database clients. A rule may name a method before Gatehouse serves it (a rule written
 * for the original keeps working, and holds as soon as the method is served).
 */
export const CONNECT_METHODS: readonly string[] = [
  'web_cli',
  'web_gui',
  'web_sftp',
  'ssh_client',
  'ssh_guide',
  'sftp_client',
  'db_client',
  'db_guide',
  'mstsc',
  'rdp',
  'vnc',
  'chrome',
  'dbeaver',
  'navicat',
  'mysql_workbench',
  'pgadmin4',
  'sqlserver_management_studio',
];
