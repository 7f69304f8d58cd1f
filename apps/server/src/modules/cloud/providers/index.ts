import type { CloudProvider } from './provider.ts';
import { lanProvider } from './lan.ts';
import { AWS_CHINA, AWS_INTERNATIONAL, createEc2Provider } from './awsEc2.ts';
import { AZURE_CHINA, AZURE_INTERNATIONAL, createAzureProvider } from './azure.ts';
import { ALIYUN, createEcsProvider } from './aliyunEcs.ts';

/** The providers cloud sync knows (docs/cloud.md, "Providers"). */
export const PROVIDERS: Record<string, CloudProvider> = {
  lan: lanProvider,
  aws_international: createEc2Provider('aws_international', AWS_INTERNATIONAL),
  aws_china: createEc2Provider('aws_china', AWS_CHINA),
  azure: createAzureProvider('azure', AZURE_CHINA),
  azure_international: createAzureProvider('azure_international', AZURE_INTERNATIONAL),
  aliyun: createEcsProvider('aliyun', ALIYUN),
};

export const providerOf = (name: string): CloudProvider | undefined =>
  Object.prototype.hasOwnProperty.call(PROVIDERS, name) ? PROVIDERS[name] : undefined;
