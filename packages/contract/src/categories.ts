import type { Language } from './constants.ts';
import { text, type I18nText } from './i18nText.ts';

/** Asset categories and their types. */
export type CategoryValue = 'host' | 'device' | 'database' | 'cloud' | 'web' | 'gpt' | 'custom';

export interface ProtocolConstraint {
  name: string;
  port: number;
  default?: boolean;
  required?: boolean;
  secret_types: string[];
}

export interface TypeConstraints {
  charset_enabled: boolean;
  domain_enabled: boolean;
  su_enabled: boolean;
  protocols: ProtocolConstraint[];
  automation: { ansible_enabled: boolean; ping_enabled: boolean; gather_facts_enabled: boolean };
}

interface TypeDef {
  value: string;
  label: I18nText;
  /** Needs a valid licence (not in the community edition). */
  xpack?: boolean;
  constraints: TypeConstraints;
}

/**
 * One asset category, the one place that says how it is named everywhere: its API collection
 * (`/api/v1/assets/<segment>/`), its console pages (`/console/assets/<segment>/create`), the route
 * names of those pages (`<name>Create`, `<name>Update`), and its labels.
 */
export interface AssetCategoryDef {
  value: CategoryValue;
  /** The plural URL segment of its API collection and console pages, e.g. `hosts`. */
  segment: string;
  /** Route name stem of its console pages: `Host` -> HostCreate, HostUpdate. */
  name: string;
  /** The category's label (tabs, the categories endpoint). */
  label: I18nText;
  /** The label of one of its assets as a resource (messages, logs), e.g. "Cloud" where the category is "Cloud service". */
  resourceLabel: I18nText;
  types: TypeDef[];
}

const pw = ['password'];
const pwKey = ['password', 'ssh_key'];
const proto = (
  name: string,
  port: number,
  secret_types = pw,
  extra: Partial<ProtocolConstraint> = {},
): ProtocolConstraint => ({
  name,
  port,
  secret_types,
  ...extra,
});

function constraints(
  protocols: ProtocolConstraint[],
  opts: Partial<Omit<TypeConstraints, 'protocols'>> = {},
): TypeConstraints {
  const first = protocols[0];
  const withDefault = first ? [{ ...first, default: true }, ...protocols.slice(1)] : protocols;
  return {
    charset_enabled: opts.charset_enabled ?? false,
    domain_enabled: opts.domain_enabled ?? true,
    su_enabled: opts.su_enabled ?? false,
    protocols: withDefault,
    automation: opts.automation ?? { ansible_enabled: false, ping_enabled: false, gather_facts_enabled: false },
  };
}

const unixHost = constraints(
  [
    proto('ssh', 22, pwKey, { required: true }),
    proto('sftp', 22, pwKey),
    proto('telnet', 23),
    proto('vnc', 5900),
    proto('rdp', 3389),
  ],
  {
    charset_enabled: true,
    su_enabled: true,
    automation: { ansible_enabled: true, ping_enabled: true, gather_facts_enabled: true },
  },
);
const windowsHost = constraints(
  [
    proto('rdp', 3389, pw, { required: true }),
    proto('ssh', 22, pwKey),
    proto('sftp', 22, pwKey),
    proto('vnc', 5900),
    proto('winrm', 5985),
  ],
  { automation: { ansible_enabled: true, ping_enabled: true, gather_facts_enabled: true } },
);
const device = constraints(
  [proto('ssh', 22, pwKey, { required: true }), proto('telnet', 23), proto('sftp', 22, pwKey)],
  {
    su_enabled: true,
    automation: { ansible_enabled: true, ping_enabled: true, gather_facts_enabled: false },
  },
);
const db = (name: string, port: number): TypeConstraints =>
  constraints([proto(name, port, pw, { required: true })], {
    automation: { ansible_enabled: true, ping_enabled: true, gather_facts_enabled: true },
  });
const web = constraints([proto('http', 80, pw, { required: true })], { domain_enabled: false });

export const ASSET_CATEGORIES: readonly AssetCategoryDef[] = [
  {
    value: 'host',
    segment: 'hosts',
    name: 'Host',
    resourceLabel: text('Host', '主机', 'ホスト'),
    label: text('Host', '主机', 'ホスト'),
    types: [
      { value: 'linux', label: text('Linux', 'Linux', 'Linux'), constraints: unixHost },
      { value: 'unix', label: text('Unix', 'Unix', 'Unix'), constraints: unixHost },
      { value: 'windows', label: text('Windows', 'Windows', 'Windows'), constraints: windowsHost },
      { value: 'other', label: text('Other', '其它', 'その他'), constraints: { ...unixHost, su_enabled: false } },
    ],
  },
  {
    value: 'device',
    segment: 'devices',
    name: 'Device',
    resourceLabel: text('Device', '网络设备', 'ネットワークデバイス'),
    label: text('Device', '网络设备', 'ネットワークデバイス'),
    types: [
      { value: 'general', label: text('General', '通用', '一般'), constraints: device },
      { value: 'switch', label: text('Switch', '交换机', 'スイッチ'), constraints: device },
      { value: 'router', label: text('Router', '路由器', 'ルーター'), constraints: device },
      { value: 'firewall', label: text('Firewall', '防火墙', 'ファイアウォール'), constraints: device },
    ],
  },
  {
    value: 'database',
    segment: 'databases',
    name: 'Database',
    resourceLabel: text('Database', '数据库', 'データベース'),
    label: text('Database', '数据库', 'データベース'),
    types: [
      { value: 'mysql', label: text('MySQL', 'MySQL', 'MySQL'), constraints: db('mysql', 3306) },
      { value: 'mariadb', label: text('MariaDB', 'MariaDB', 'MariaDB'), constraints: db('mariadb', 3306) },
      { value: 'mongodb', label: text('MongoDB', 'MongoDB', 'MongoDB'), constraints: db('mongodb', 27017) },
      { value: 'redis', label: text('Redis', 'Redis', 'Redis'), constraints: db('redis', 6379) },
      {
        value: 'postgresql',
        label: text('PostgreSQL', 'PostgreSQL', 'PostgreSQL'),
        xpack: true,
        constraints: db('postgresql', 5432),
      },
      { value: 'oracle', label: text('Oracle', 'Oracle', 'Oracle'), xpack: true, constraints: db('oracle', 1521) },
      {
        value: 'sqlserver',
        label: text('SQLServer', 'SQLServer', 'SQLServer'),
        xpack: true,
        constraints: db('sqlserver', 1433),
      },
      {
        value: 'clickhouse',
        label: text('ClickHouse', 'ClickHouse', 'ClickHouse'),
        xpack: true,
        constraints: db('clickhouse', 9000),
      },
    ],
  },
  {
    value: 'cloud',
    segment: 'clouds',
    name: 'Cloud',
    resourceLabel: text('Cloud', '云服务', 'クラウド'),
    label: text('Cloud service', '云服务', 'クラウドサービス'),
    types: [
      { value: 'public', label: text('Public cloud', '公有云', 'パブリッククラウド'), constraints: web },
      { value: 'private', label: text('Private cloud', '私有云', 'プライベートクラウド'), constraints: web },
      {
        value: 'k8s',
        label: text('Kubernetes', 'Kubernetes', 'Kubernetes'),
        constraints: { ...constraints([proto('k8s', 443, ['token'], { required: true })]), domain_enabled: true },
      },
    ],
  },
  {
    value: 'web',
    segment: 'webs',
    name: 'Web',
    resourceLabel: text('Web', 'Web', 'Web'),
    label: text('Web', 'Web', 'Web'),
    types: [{ value: 'website', label: text('Website', '网站', 'ウェブサイト'), constraints: web }],
  },
  {
    value: 'gpt',
    segment: 'gpts',
    name: 'GPT',
    resourceLabel: text('GPT', 'GPT', 'GPT'),
    label: text('GPT', 'GPT', 'GPT'),
    types: [
      {
        value: 'chatgpt',
        label: text('ChatGPT', 'ChatGPT', 'ChatGPT'),
        constraints: constraints([proto('chatgpt', 443, ['api_key'], { required: true })], { domain_enabled: false }),
      },
    ],
  },
  {
    value: 'custom',
    segment: 'customs',
    name: 'Custom',
    label: text('Custom type', '自定义类型', 'カスタムタイプ'),
    resourceLabel: text('Custom', '自定义', 'カスタム'),
    types: [],
  },
];

/** The API collection of a category's assets (`/api/v1/assets/hosts/`); without one, every asset (`assets/`). */
export function assetsApiPath(category?: CategoryValue | string): string {
  return `/api/v1/assets/${category ? assetCategory(category).segment : 'assets'}/`;
}

/** A category by value; an unknown value is treated as a host (the contract's default category). */
export function assetCategory(category: CategoryValue | string): AssetCategoryDef {
  return ASSET_CATEGORIES.find((c) => c.value === category) ?? ASSET_CATEGORIES[0]!;
}

export interface CategoryOut {
  value: CategoryValue;
  label: string;
  types: { value: string; label: string; category: CategoryValue; constraints: TypeConstraints }[];
}

/** The categories endpoint's payload, in a language; licensed types only when the licence is valid. */
export function categoriesFor(lang: Language, licensed: boolean): CategoryOut[] {
  return ASSET_CATEGORIES.map((c) => ({
    value: c.value,
    label: c.label[lang],
    types: c.types
      .filter((t) => licensed || !t.xpack)
      .map((t) => ({ value: t.value, label: t.label[lang], category: c.value, constraints: t.constraints })),
  }));
}
