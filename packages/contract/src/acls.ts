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
 * Connect method values a connect-method rule can name (the terminal components' web and native
 * methods). The list lives here until the terminal components endpoint serves it.
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
];
