/* Ambient: a script, not a module (no top-level import or export), imported for its declarations. */
/** The parts of `oidc-provider` (no types of its own) that oidcProvider.ts uses. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  interface Context {
    oidc: {
      session?: { accountId?: string };
      client?: { clientId: string };
      provider: { Grant: new (init: { clientId: string; accountId: string }) => Grant };
    };
  }
  export interface Configuration {
    clients: Record<string, unknown>[];
    claims: Record<string, string[]>;
    findAccount(ctx: Context, id: string): { accountId: string; claims(): Record<string, unknown> };
    features: Record<string, { enabled: boolean }>;
    pkce: { required(): boolean };
    cookies: { keys: string[] };
    ttl: Record<string, number>;
    loadExistingGrant(ctx: Context): Promise<Grant | undefined>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
