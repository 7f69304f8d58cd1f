import { ConfigError } from './configError.ts';

/**
 * The built-in gateway's clock per instance (docs/deploy.md, "Several instances as one"), from the
 * environment.
 */
export interface GatewayConfig {
  /**
   * `GATEWAY_HEARTBEAT_MS`: how often an instance writes its row in `terminal_terminal` and looks for
   * instances that stopped (default 30000); an instance silent for 3 of them is dead, and its open
   * sessions are ended at its last heartbeat by whichever instance looks first.
   */
  heartbeatMs: number;
  /**
   * `REPLAY_STREAM_MS`: how often a running session's new recording lines go to the default replay
   * storage when that is an object store (default 1000): what an instance that dies loses.
   */
  replayStreamMs: number;
}

const SETTINGS: [keyof GatewayConfig, string, number, number][] = [
  ['heartbeatMs', 'GATEWAY_HEARTBEAT_MS', 30_000, 100],
  ['replayStreamMs', 'REPLAY_STREAM_MS', 1_000, 100],
];

export const DEFAULT_GATEWAY_CONFIG: GatewayConfig = { heartbeatMs: 30_000, replayStreamMs: 1_000 };

export function loadGatewayConfig(env: NodeJS.ProcessEnv): GatewayConfig {
  const out = { ...DEFAULT_GATEWAY_CONFIG };
  for (const [key, name, , min] of SETTINGS) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw)))
      throw new ConfigError(name, `"${raw}" is not a whole number of at least ${min}`);
    out[key] = Number(raw);
  }
  return out;
}
