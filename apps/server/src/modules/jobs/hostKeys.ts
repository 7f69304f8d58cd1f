import type { Kysely } from 'kysely';
import type { Language } from '@gatehouse/contract';
import type { DB } from '../../platform/db/schema.ts';
import type { RunnerConnection } from '../ops/engine/runner.ts';
import { probeHostKey } from '../terminal/gateway/hostKeyProbe.ts';
import type { PlannedHost, Refusal } from './hostPlan.ts';
import { hopOf } from './sshRunner.ts';
import { inParallel } from './hostLimits.ts';

/**
 * Ansible makes its own SSH connections: before a run, each host's key (and its domain gateway's)
 * is probed and checked against the key trusted for it, as the terminal's connections are
 * (`terminal_hostkey`, trusted on first use), and the runner then tells OpenSSH to accept that key
 * and no other (ops/ansible/inventory.ts). A host whose key changed is refused with the terminal's
 * message, before any secret is sent to it. At most `parallel` probes at a time.
 */
export async function pinHostKeys(
  db: Kysely<DB>,
  lang: Language,
  planned: PlannedHost[],
  parallel: number,
): Promise<{ hosts: PlannedHost[]; refusals: Refusal[] }> {
  const hosts: PlannedHost[] = [];
  const refusals: Refusal[] = [];
  await inParallel(planned, parallel, async (p) => {
    const c = p.host.connection;
    try {
      const gateway = c.gateway ? hopOf(c.gateway.assetId, c.gateway) : undefined;
      const gatewayKey = gateway ? await probeHostKey(db, lang, gateway) : undefined;
      const hostKey = await probeHostKey(db, lang, hopOf(p.host.assetId, c), gateway);
      const connection: RunnerConnection = {
        ...c,
        hostKey,
        ...(c.gateway ? { gateway: { ...c.gateway, hostKey: gatewayKey } } : {}),
      };
      hosts.push({ ...p, host: { ...p.host, connection } });
    } catch (e) {
      refusals.push({
        result: { assetId: p.host.assetId, status: 'failed', reason: (e as Error).message, output: '', timeCost: 0 },
        asset: p.host.name,
        account: p.account,
      });
    }
  });
  return { hosts, refusals };
}
