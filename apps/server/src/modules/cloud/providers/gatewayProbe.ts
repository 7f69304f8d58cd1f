import type { Kysely } from 'kysely';
import type ssh2 from 'ssh2';
import type { Language } from '@gatehouse/contract';
import type { DB } from '../../../platform/db/schema.ts';
import type { SecretBox } from '../../../platform/crypto/secretBox.ts';
import { connectJump } from '../../terminal/gateway/sshConnect.ts';
import { gatewayOf } from '../../terminal/gateway/sshTarget.ts';
import { CloudError, type TcpProbe } from './provider.ts';

/**
 * The `lan` scan through a domain's gateway (docs/cloud.md): one SSH connection to the domain's
 * first usable gateway (the one sessions of its assets go through, terminal/gateway/sshTarget.ts),
 * opened at the first probe; each probe is a forwarded channel to `host:port` that the gateway
 * opens or refuses within the timeout, so what is found is what the gateway reaches, not what the
 * Gatehouse host reaches. `close()` ends the connection.
 */
export interface GatewayProbe {
  probe: TcpProbe;
  close(): void;
}

export async function gatewayProbe(
  db: Kysely<DB>,
  box: SecretBox,
  domain: { id: string; name: string },
  lang: Language,
): Promise<GatewayProbe> {
  const hop = await gatewayOf(db, box, domain.id, lang);
  if (!hop) throw new CloudError('lan_no_gateway', { domain: domain.name });
  let jump: Promise<ssh2.Client> | undefined;
  const connect = () =>
    (jump ??= connectJump(db, lang, hop).catch((e: Error) => {
      throw new CloudError('lan_gateway_failed', { domain: domain.name, error: e.message });
    }));
  const probe: TcpProbe = async (host, port, timeoutMs, signal) => {
    const client = await connect();
    return new Promise<boolean>((resolve) => {
      let settled = false;
      const done = (ok: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener('abort', stop);
        resolve(ok);
      };
      const stop = () => done(false);
      const timer = setTimeout(stop, timeoutMs);
      signal.addEventListener('abort', stop);
      client.forwardOut('127.0.0.1', 0, host, port, (err, channel) => {
        // A channel that opens after the timeout is closed all the same.
        if (channel) channel.close();
        done(!err);
      });
    });
  };
  return {
    probe,
    close: () => {
      void jump?.then((c) => c.end()).catch(() => undefined);
    },
  };
}
