/**
 * The deploy options of an applet host (`deploy_options`, contract: console reference "Remote apps ›
 * Applet hosts"): what the deployment would configure on the Windows host. The server checks them
 * against this list (terminal/applets/appletHostResource.ts) and the console draws its inputs from it.
 */
export type DeployOptionKind = 'url' | 'bool' | 'host' | 'choice' | 'int';

export interface DeployOption {
  name: string;
  kind: DeployOptionKind;
  /** `CORE_HOST`'s default is the site URL, filled by the server. */
  default: string | number | boolean;
  choices?: readonly { value: number; label: string }[];
  min?: number;
  max?: number;
}

export const APPLET_HOST_DEPLOY_OPTIONS: readonly DeployOption[] = [
  { name: 'CORE_HOST', kind: 'url', default: '' },
  { name: 'IGNORE_VERIFY_CERTS', kind: 'bool', default: true },
  { name: 'RDS_Licensing', kind: 'bool', default: false },
  { name: 'RDS_LicenseServer', kind: 'host', default: '127.0.0.1' },
  {
    name: 'RDS_LicensingMode',
    kind: 'choice',
    default: 4,
    choices: [
      { value: 2, label: 'perDevice' },
      { value: 4, label: 'perUser' },
    ],
  },
  {
    name: 'RDS_fSingleSessionPerUser',
    kind: 'choice',
    default: 1,
    choices: [
      { value: 1, label: 'disabled' },
      { value: 0, label: 'enabled' },
    ],
  },
  { name: 'RDS_MaxDisconnectionTime', kind: 'int', default: 60000, min: 0, max: 2_147_483_647 },
  { name: 'RDS_RemoteAppLogoffTimeLimit', kind: 'int', default: 0, min: 0, max: 2_147_483_647 },
];

/** How many accounts an applet host may be asked to create (`accounts_create_amount`). */
export const APPLET_HOST_ACCOUNTS_MAX = 500;
