import type { RunDir } from './runDir.ts';
import type { RunnerConnection, RunnerHost } from '../engine/runner.ts';
import { unsafeYaml, type YamlValue } from './unsafeYaml.ts';

/**
 * The inventory of one run, from the hosts the engine gives (their accounts' secrets unsealed and
 * their host keys pinned):
 * one host per asset, named by the asset's id (results come back keyed by it), reached over SSH
 * with the account's password (through sshpass) or private key (a 0600 file of the run). A host
 * in a domain goes through the domain's gateway as the terminal does (an SSH `-W` tunnel through
 * the gateway host), here as a ProxyCommand. Nothing reaches a shell that was not checked first:
 * the ProxyCommand is the one string ssh hands to a shell, so its host, port and user must be plain.
 */

const PLAIN_HOST = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;
const PLAIN_USER = /^[A-Za-z0-9_][A-Za-z0-9._@-]*$/;
/** A host key as `known_hosts` has it: nothing a shell or ssh_config would read as more. */
const HOST_KEY = /^([a-z0-9@.-]+) [A-Za-z0-9+/]+=*$/;
const SSH_OPTS = ['-o', 'ConnectTimeout=10', '-o', 'LogLevel=ERROR'];

export type HostRefusal = { code: 'key_passphrase' } | { code: 'bad_address'; value: string } | { code: 'host_key' };

/**
 * OpenSSH accepts the key pinned for `alias` in the run's known_hosts and no other: the key the job
 * centre probed and checked against the trusted one (jobs/hostKeys.ts), under an alias of the
 * host's own so that the address and port (or a gateway's tunnel) do not matter. An RSA key is
 * offered with SHA-2 signatures (OpenSSH no longer accepts `ssh-rsa`'s SHA-1).
 */
function pinnedKey(knownHosts: string, alias: string, key: string): string[] {
  const type = HOST_KEY.exec(key)![1]!;
  const algorithms = type === 'ssh-rsa' ? 'rsa-sha2-512,rsa-sha2-256' : type;
  return [
    ...[
      '-o',
      'StrictHostKeyChecking=yes',
      '-o',
      `UserKnownHostsFile=${knownHosts}`,
      '-o',
      'GlobalKnownHostsFile=/dev/null',
    ],
    ...['-o', `HostKeyAlias=${alias}`, '-o', `HostKeyAlgorithms=${algorithms}`],
  ];
}

function checkEndpoint(c: { host: string; port: number; username: string }, strictUser: boolean): string | undefined {
  if (!PLAIN_HOST.test(c.host)) return c.host;
  if (!Number.isInteger(c.port) || c.port < 1 || c.port > 65535) return String(c.port);
  if (strictUser ? !PLAIN_USER.test(c.username) : !c.username || c.username.startsWith('-')) return c.username;
  return undefined;
}

function proxyCommand(
  dir: RunDir,
  name: string,
  gw: NonNullable<RunnerConnection['gateway']>,
  knownHosts: string,
): string {
  const pinned = pinnedKey(knownHosts, `${name}-gateway`, gw.hostKey!);
  const ssh = ['ssh', ...SSH_OPTS, ...pinned, '-p', String(gw.port), '-l', gw.username, '-W', '%h:%p'];
  let cmd: string[];
  if (gw.privateKey) {
    const key = dir.write(
      `secrets/${name}.gateway.key`,
      gw.privateKey.endsWith('\n') ? gw.privateKey : `${gw.privateKey}\n`,
    );
    cmd = [...ssh, '-o', 'BatchMode=yes', '-o', 'IdentitiesOnly=yes', '-i', key, gw.host];
  } else {
    const pass = dir.write(`secrets/${name}.gateway.pass`, gw.password ?? '');
    cmd = ['sshpass', '-f', pass, ...ssh, '-o', 'PubkeyAuthentication=no', gw.host];
  }
  return cmd.join(' ');
}

/** Writes the inventory (0600) and the secrets; hosts that cannot be reached safely are refused. */
export function writeInventory(
  dir: RunDir,
  hosts: RunnerHost[],
): { file: string; refused: Map<string, HostRefusal>; included: RunnerHost[] } {
  const refused = new Map<string, HostRefusal>();
  const inv: Record<string, YamlValue> = {};
  const included: RunnerHost[] = [];
  const known: string[] = [];
  const knownHosts = dir.path('known_hosts');
  hosts.forEach((h, i) => {
    const c = h.connection;
    const bad = checkEndpoint(c, false) ?? (c.gateway ? checkEndpoint(c.gateway, true) : undefined);
    if (bad !== undefined) return void refused.set(h.assetId, { code: 'bad_address', value: bad });
    if (c.passphrase || c.gateway?.passphrase) return void refused.set(h.assetId, { code: 'key_passphrase' });
    if (!HOST_KEY.test(c.hostKey ?? '') || (c.gateway && !HOST_KEY.test(c.gateway.hostKey ?? '')))
      return void refused.set(h.assetId, { code: 'host_key' });
    const name = `h${i}`;
    known.push(`${name} ${c.hostKey}`);
    if (c.gateway) known.push(`${name}-gateway ${c.gateway.hostKey}`);
    const vars: Record<string, YamlValue> = {
      ansible_connection: 'ssh',
      ansible_host: c.host,
      ansible_port: c.port,
      ansible_user: c.username,
    };
    if (c.privateKey)
      vars.ansible_ssh_private_key_file = dir.write(
        `secrets/${name}.key`,
        c.privateKey.endsWith('\n') ? c.privateKey : `${c.privateKey}\n`,
      );
    else vars.ansible_password = c.password ?? '';
    const args = pinnedKey(knownHosts, name, c.hostKey!);
    if (c.gateway) args.push(`-o ProxyCommand="${proxyCommand(dir, name, c.gateway, knownHosts)}"`);
    vars.ansible_ssh_common_args = args.join(' ');
    inv[h.assetId] = vars;
    included.push(h);
  });
  dir.write('known_hosts', known.length ? `${known.join('\n')}\n` : '');
  const file = dir.write('inventory.yml', unsafeYaml({ all: { hosts: inv } }));
  return { file, refused, included };
}
