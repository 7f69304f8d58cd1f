/** Protocols, their default ports and settings. */
export interface ProtocolDefault {
  port: number;
  secret_types: string[];
  setting: Record<string, unknown>;
  /** The port comes from the address (URLs). */
  port_from_addr?: boolean;
}

const pw = ['password'];
const pwKey = ['password', 'ssh_key'];

export const PROTOCOLS: Record<string, ProtocolDefault> = {
  ssh: { port: 22, secret_types: pwKey, setting: {} },
  sftp: { port: 22, secret_types: pwKey, setting: { sftp_home: '/tmp' } },
  rdp: { port: 3389, secret_types: pw, setting: { console: false, security: 'any', ad_domain: '' } },
  vnc: { port: 5900, secret_types: pw, setting: {} },
  telnet: {
    port: 23,
    secret_types: pw,
    setting: {
      username_prompt: 'username:|login:',
      password_prompt: 'password:',
      success_prompt: 'success|成功|#|>|\\$',
    },
  },
  winrm: { port: 5985, secret_types: pw, setting: { use_ssl: false } },
  mysql: { port: 3306, secret_types: pw, setting: {} },
  mariadb: { port: 3306, secret_types: pw, setting: {} },
  postgresql: { port: 5432, secret_types: pw, setting: {} },
  oracle: { port: 1521, secret_types: pw, setting: { sysdba: false } },
  sqlserver: { port: 1433, secret_types: pw, setting: { version: '>=2014' } },
  clickhouse: { port: 9000, secret_types: pw, setting: {} },
  mongodb: { port: 27017, secret_types: pw, setting: {} },
  redis: { port: 6379, secret_types: pw, setting: { auth_username: false } },
  k8s: { port: 443, secret_types: ['token'], setting: {}, port_from_addr: true },
  http: {
    port: 80,
    secret_types: pw,
    port_from_addr: true,
    setting: {
      safe_mode: false,
      autofill: 'basic',
      username_selector: 'name=username',
      password_selector: 'name=password',
      submit_selector: 'type=submit',
      script: [],
    },
  },
  chatgpt: { port: 443, secret_types: ['api_key'], setting: { api_mode: 'gpt-3.5-turbo' }, port_from_addr: true },
};

export interface BuiltinProtocol {
  name: string;
  port: number;
  primary?: boolean;
  required?: boolean;
  default?: boolean;
  setting?: Record<string, unknown>;
}

export interface BuiltinPlatform {
  id: number;
  name: string;
  category: string;
  type: string;
  internal: boolean;
  domain_enabled: boolean;
  su_enabled: boolean;
  su_method: string | null;
  protocols: BuiltinProtocol[];
}

const p = (name: string, extra: Partial<BuiltinProtocol> = {}): BuiltinProtocol => ({
  name,
  port: PROTOCOLS[name]!.port,
  ...extra,
});
const linux = [
  p('ssh', { primary: true, required: true, default: true }),
  p('sftp', { default: true }),
  p('telnet'),
  p('vnc'),
  p('rdp'),
];
const unix = [p('ssh', { primary: true, required: true, default: true }), p('telnet'), p('vnc'), p('rdp')];
const windows = [p('rdp', { primary: true, required: true, default: true }), p('ssh'), p('vnc')];
const device = [p('ssh', { primary: true, required: true, default: true }), p('telnet')];
const only = (name: string, setting?: Record<string, unknown>) => [
  p(name, { primary: true, required: true, default: true, ...(setting ? { setting } : {}) }),
];

type Spec = [
  name: string,
  category: string,
  type: string,
  protocols: BuiltinProtocol[],
  opts?: Partial<BuiltinPlatform>,
];

/** Builtin platforms in the fresh-install order of the JumpServer API; ids are stable here. */
const SPECS: Spec[] = [
  ['Linux', 'host', 'linux', linux, { su_enabled: true, su_method: 'sudo' }],
  ['Unix', 'host', 'unix', unix, { su_enabled: true, su_method: 'sudo' }],
  ['BSD', 'host', 'unix', unix, { su_enabled: true, su_method: 'sudo' }],
  ['Windows', 'host', 'windows', windows],
  ['Windows2016', 'host', 'windows', windows, { internal: false }],
  ['Other', 'host', 'other', linux, { internal: false }],
  [
    'Windows-RDP',
    'host',
    'windows',
    [p('rdp', { primary: true, required: true, default: true, setting: { security: 'rdp' } }), p('ssh'), p('vnc')],
  ],
  [
    'Windows-TLS',
    'host',
    'windows',
    [p('rdp', { primary: true, required: true, default: true, setting: { security: 'tls' } }), p('ssh'), p('vnc')],
  ],
  ['Gateway', 'host', 'linux', linux, { su_enabled: true, su_method: 'sudo' }],
  ['macOS', 'host', 'unix', unix, { su_enabled: true, su_method: 'sudo' }],
  ['AIX', 'host', 'unix', unix, { su_enabled: true, su_method: 'su' }],
  [
    'RemoteAppHost',
    'host',
    'windows',
    [p('rdp', { primary: true, required: true, default: true }), p('ssh', { required: true })],
  ],
  ['General', 'device', 'general', device, { su_enabled: true, su_method: 'enable' }],
  ['Cisco', 'device', 'general', device, { su_enabled: true, su_method: 'enable' }],
  ['Huawei', 'device', 'general', device, { su_enabled: true, su_method: 'super' }],
  ['H3C', 'device', 'general', device, { su_enabled: true, su_method: 'super_level' }],
  ['MySQL', 'database', 'mysql', only('mysql')],
  ['MariaDB', 'database', 'mariadb', only('mariadb')],
  ['PostgreSQL', 'database', 'postgresql', only('postgresql')],
  ['Oracle', 'database', 'oracle', only('oracle')],
  ['SQLServer', 'database', 'sqlserver', only('sqlserver')],
  ['ClickHouse', 'database', 'clickhouse', only('clickhouse')],
  ['MongoDB', 'database', 'mongodb', only('mongodb')],
  ['Redis', 'database', 'redis', only('redis')],
  ['Redis6+', 'database', 'redis', only('redis', { auth_username: true })],
  ['Website', 'web', 'website', only('http'), { domain_enabled: false }],
  ['Vmware-vSphere', 'cloud', 'private', only('http'), { domain_enabled: false }],
  ['Kubernetes', 'cloud', 'k8s', only('k8s')],
  ['ChatGPT', 'gpt', 'chatgpt', only('chatgpt'), { domain_enabled: false }],
];

export const BUILTIN_PLATFORMS: BuiltinPlatform[] = SPECS.map(([name, category, type, protocols, opts], i) => ({
  id: i + 1,
  name,
  category,
  type,
  internal: true,
  domain_enabled: true,
  su_enabled: false,
  su_method: null,
  protocols,
  ...opts,
}));

/** A protocol's settings: the protocol's defaults overlaid with the given ones. */
export function settingOf(name: string, given: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...(PROTOCOLS[name]?.setting ?? {}), ...given };
}
