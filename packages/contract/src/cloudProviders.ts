/**
 * The attributes of each cloud sync provider (console reference §3.12, "Provider attrs"), for the
 * console's account form; the server's adapters (apps/server/src/modules/cloud/providers/) check
 * them and seal the secret ones, and a test there keeps the two lists the same.
 */
export interface CloudAttrField {
  name: string;
  /**
   * `text` (default), a `secret` (sealed, never shown back), a `number`, a `list` of strings, or a
   * `domain` of the organisation (its id: a scan goes through its gateway).
   */
  kind?: 'text' | 'secret' | 'number' | 'list' | 'domain';
  required?: boolean;
  default?: string | number | readonly string[];
}

const ACCESS_KEY: readonly CloudAttrField[] = [
  { name: 'access_key_id', required: true },
  { name: 'access_key_secret', kind: 'secret', required: true },
];
const AZURE: readonly CloudAttrField[] = [
  { name: 'client_id', required: true },
  { name: 'client_secret', kind: 'secret', required: true },
  { name: 'tenant_id', required: true },
  { name: 'subscription_id', required: true },
];

export const CLOUD_PROVIDER_ATTRS: Readonly<Record<string, readonly CloudAttrField[]>> = {
  lan: [
    { name: 'ip_group', kind: 'list', required: true, default: [] },
    { name: 'test_port', kind: 'number', default: 22 },
    { name: 'test_timeout', kind: 'number', default: 1 },
    { name: 'hostname_prefix', default: '' },
    { name: 'domain', kind: 'domain' },
  ],
  aws_international: ACCESS_KEY,
  aws_china: ACCESS_KEY,
  azure: AZURE,
  azure_international: AZURE,
  aliyun: ACCESS_KEY,
};
