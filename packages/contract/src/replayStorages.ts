import { text, type I18nText } from './i18nText.ts';

/**
 * Replay storage types (`terminal/replay-storages/`) and the settings each keeps in `meta`: one
 * declaration for the server's validation and the console's form. `server` is the local data
 * directory (the built-in `default` storage); every other type is an object store. `secret`
 * fields are sealed at rest and never answered; `url` fields are http(s) addresses.
 */
export const REPLAY_STORAGE_TYPES = ['server', 's3', 'ceph', 'swift', 'oss', 'azure', 'obs', 'cos', 'sftp'] as const;
export type ReplayStorageType = (typeof REPLAY_STORAGE_TYPES)[number];

export interface StorageMetaField {
  name: string;
  required?: boolean;
  secret?: boolean;
  url?: boolean;
  choices?: readonly string[];
  default?: string;
  /** A list of http(s) addresses separated by commas (no credentials in them). */
  urls?: boolean;
}

const BUCKET: StorageMetaField = { name: 'BUCKET', required: true };
const ACCESS_KEY: StorageMetaField = { name: 'ACCESS_KEY', required: true };
const SECRET_KEY: StorageMetaField = { name: 'SECRET_KEY', required: true, secret: true };
const REGION: StorageMetaField = { name: 'REGION' };
const ENDPOINT: StorageMetaField = { name: 'ENDPOINT', required: true, url: true };

export const REPLAY_STORAGE_META: Readonly<Record<ReplayStorageType, readonly StorageMetaField[]>> = {
  server: [],
  s3: [BUCKET, ACCESS_KEY, SECRET_KEY, REGION, { ...ENDPOINT, required: false }],
  ceph: [BUCKET, ACCESS_KEY, SECRET_KEY, ENDPOINT],
  swift: [BUCKET, ACCESS_KEY, SECRET_KEY, REGION, ENDPOINT],
  oss: [BUCKET, ACCESS_KEY, SECRET_KEY, ENDPOINT],
  azure: [
    { name: 'CONTAINER_NAME', required: true },
    { name: 'ACCOUNT_NAME', required: true },
    { name: 'ACCOUNT_KEY', required: true, secret: true },
    { name: 'ENDPOINT_SUFFIX', choices: ['core.windows.net', 'core.chinacloudapi.cn'], default: 'core.windows.net' },
  ],
  obs: [BUCKET, ACCESS_KEY, SECRET_KEY, ENDPOINT],
  cos: [BUCKET, ACCESS_KEY, SECRET_KEY, REGION, ENDPOINT],
  // An SFTP server (also the target of account backups sent to object storage, issue 30).
  sftp: [
    { name: 'SFTP_HOST', required: true },
    { name: 'SFTP_PORT', default: '22' },
    { name: 'STA_SFTP_USERNAME', required: true },
    { name: 'STA_SFTP_PASSWORD', required: true, secret: true },
    { name: 'STA_SFTP_ROOT_PATH', default: '/tmp' },
  ],
};

export const REPLAY_STORAGE_LABELS: Readonly<Record<ReplayStorageType, I18nText>> = {
  server: text('Local', '本地', 'ローカル'),
  s3: text('S3', 'S3', 'S3'),
  ceph: text('Ceph', 'Ceph', 'Ceph'),
  swift: text('Swift', 'Swift', 'Swift'),
  oss: text('OSS', 'OSS', 'OSS'),
  azure: text('Azure', 'Azure', 'Azure'),
  obs: text('OBS', 'OBS', 'OBS'),
  cos: text('COS', 'COS', 'COS'),
  sftp: text('SFTP', 'SFTP', 'SFTP'),
};

/**
 * Command storage types (`terminal/command-storages/`): `server` is the database (the built-in
 * `default`, always written: the console's lists read it); `es` also sends each finished session's
 * commands to Elasticsearch or OpenSearch (`_bulk`). USERNAME/PASSWORD replace credentials in URLs.
 */
export const COMMAND_STORAGE_TYPES = ['server', 'es'] as const;
export type CommandStorageType = (typeof COMMAND_STORAGE_TYPES)[number];

export const COMMAND_STORAGE_META: Readonly<Record<CommandStorageType, readonly StorageMetaField[]>> = {
  server: [],
  es: [
    { name: 'HOSTS', required: true, urls: true },
    { name: 'INDEX', default: 'gatehouse' },
    { name: 'INDEX_BY_DATE', choices: ['false', 'true'], default: 'false' },
    { name: 'IGNORE_VERIFY_CERTS', choices: ['false', 'true'], default: 'false' },
    { name: 'USERNAME' },
    { name: 'PASSWORD', secret: true },
  ],
};

export const COMMAND_STORAGE_LABELS: Readonly<Record<CommandStorageType, I18nText>> = {
  server: text('Database', '数据库', 'データベース'),
  es: text('Elasticsearch', 'Elasticsearch', 'Elasticsearch'),
};
