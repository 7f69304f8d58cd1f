import type { TextParams } from '@gatehouse/contract';
import type { CloudInstance } from '../strategy.ts';
import type { CloudMessage } from '../cloudMessages.ts';

/**
 * What a provider adapter gives cloud sync (docs/cloud.md, "Providers"): its attributes (plain and
 * secret), a check of them at save, a test of the credentials, its regions and, per region, its
 * instances as a stream (an async iterator: 10,000 instances are never held in one list).
 * Failures a user should read are `CloudError`s with a message key of `cloudMessages.ts`.
 */
export class CloudError extends Error {
  constructor(
    readonly key: CloudMessage,
    readonly params: TextParams = {},
  ) {
    super(`${key} ${JSON.stringify(params)}`);
  }
}

/** Whether `host:port` accepts a TCP connection within `timeoutMs`. */
export type TcpProbe = (host: string, port: number, timeoutMs: number, signal: AbortSignal) => Promise<boolean>;

export interface ProviderContext {
  attrs: Record<string, unknown>;
  secrets: Record<string, string>;
  signal: AbortSignal;
  /** How a scanning provider reaches addresses: through a domain's gateway when the account names one. */
  probe?: TcpProbe;
}

export interface AttrProblem {
  field: string;
  key: CloudMessage;
  params?: TextParams;
}

export interface CloudProvider {
  name: string;
  /** Plain attributes (stored as they are) and secret ones (sealed, never answered). */
  attrs: readonly string[];
  secretAttrs: readonly string[];
  /** Fills defaults and checks the attributes; the first problem found, if any. */
  check(attrs: Record<string, unknown>, secrets: Record<string, string>): AttrProblem | undefined;
  test(ctx: ProviderContext): Promise<void>;
  regions(ctx: ProviderContext): Promise<string[]>;
  instances(ctx: ProviderContext, region: string): AsyncIterable<CloudInstance>;
}
