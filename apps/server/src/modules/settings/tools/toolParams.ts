import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';

/**
 * The system tools' parameters (`/ws/setting/tools/`, contract §4.18) checked and turned into an
 * argument list: every value is parsed to a strict form (an IP address or host name, a CIDR of at
 * most 256 addresses, a port or port range, an interface this host has, a number within bounds)
 * before it becomes one element of argv, and destinations go after `--` where the program takes it,
 * so no value can be read as an option or reach a shell (none is used: toolRunner.ts spawns the
 * program itself). Errors name the field with a message key (toolsSocket.ts words it).
 */
export const TOOL_TYPES = ['Ping', 'Telnet', 'Nmap', 'Tcpdump', 'Traceroute'] as const;
export type ToolType = (typeof TOOL_TYPES)[number];

export class ToolParamError extends Error {
  constructor(
    readonly field: string,
    readonly key: 'tool_required' | 'tool_host' | 'tool_port' | 'tool_number' | 'tool_interface' | 'tool_too_many',
    readonly params: Record<string, string | number> = {},
  ) {
    super(`${field}: ${key}`);
  }
}

export type ToolPlan =
  | { kind: 'exec'; runs: { program: string; args: string[] }[]; timeoutMs: number }
  | { kind: 'telnet'; host: string; port: number; timeoutMs: number };

const MAX_HOSTS = 16;
const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

/** A list field: an array of strings, or one string of items separated by commas or spaces. */
function items(body: Record<string, unknown>, field: string): string[] {
  const v = body[field];
  if (v === undefined || v === null || v === '') return [];
  const raw = Array.isArray(v) ? v.map(String) : typeof v === 'string' ? v.split(/[\s,]+/) : [String(v)];
  const out = raw.map((s) => s.trim()).filter(Boolean);
  if (out.length > MAX_HOSTS) throw new ToolParamError(field, 'tool_too_many', { max: MAX_HOSTS });
  return out;
}

/** An IP address or a DNS host name; never anything starting with `-` or holding other characters. */
export function checkHost(field: string, s: string, cidr = false): string {
  if (net.isIP(s)) return s;
  if (HOST_NAME.test(s) && !/^\d+(\.\d+)*$/.test(s)) return s;
  if (cidr) {
    const m = /^([0-9.]+|[0-9a-fA-F:]+)\/(\d{1,3})$/.exec(s);
    if (m) {
      const family = net.isIP(m[1]!);
      const bits = Number(m[2]);
      // At most 256 addresses: a scan of the bastion's neighbourhood, not of the internet.
      if (family === 4 && bits >= 24 && bits <= 32) return s;
      if (family === 6 && bits >= 120 && bits <= 128) return s;
    }
  }
  throw new ToolParamError(field, 'tool_host', { value: s.slice(0, 64) });
}

function hosts(
  body: Record<string, unknown>,
  field: string,
  o: { required?: boolean; cidr?: boolean; one?: boolean } = {},
) {
  const list = items(body, field);
  if (o.required && !list.length) throw new ToolParamError(field, 'tool_required');
  if (o.one && list.length > 1) throw new ToolParamError(field, 'tool_too_many', { max: 1 });
  return list.map((h) => checkHost(field, h, o.cidr));
}

function int(body: Record<string, unknown>, field: string, min: number, max: number, dflt: number): number {
  const v = body[field];
  if (v === undefined || v === null || v === '') return dflt;
  const n = typeof v === 'number' ? v : /^\d{1,6}$/.test(String(v).trim()) ? Number(String(v).trim()) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) throw new ToolParamError(field, 'tool_number', { min, max });
  return n;
}

/** Ports: `22`, `1000-1010`, lists of them; answered as nmap's and tcpdump's `a,b,c-d` items. */
function ports(body: Record<string, unknown>, field: string): string[] {
  return items(body, field).map((p) => {
    const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(p);
    const a = Number(m?.[1]);
    const b = m?.[2] === undefined ? a : Number(m[2]);
    if (!m || a < 1 || b > 65535 || b < a) throw new ToolParamError(field, 'tool_port', { value: p.slice(0, 32) });
    return m[2] === undefined ? String(a) : `${a}-${b}`;
  });
}

function interfaces(body: Record<string, unknown>, field: string): string[] {
  const known = new Set(Object.keys(os.networkInterfaces()));
  return items(body, field).map((i) => {
    if (i === 'any' || known.has(i)) return i;
    throw new ToolParamError(field, 'tool_interface', { value: i.slice(0, 32) });
  });
}

/** tcpdump's filter: each part a keyword followed by a checked value, joined by `and`/`or`. */
function tcpdumpFilter(src: string[], srcPorts: string[], dst: string[], dstPorts: string[]): string[] {
  const any = (kw: string, values: string[]) =>
    values.length ? [`(${values.map((v) => `${kw} ${v}`).join(' or ')})`] : [];
  const portKw = (dir: string, p: string) => (p.includes('-') ? `${dir} portrange ${p}` : `${dir} port ${p}`);
  const parts = [
    ...any(
      'src host',
      src.map((h) => h),
    ),
    ...(srcPorts.length ? [`(${srcPorts.map((p) => portKw('src', p)).join(' or ')})`] : []),
    ...any('dst host', dst),
    ...(dstPorts.length ? [`(${dstPorts.map((p) => portKw('dst', p)).join(' or ')})`] : []),
  ];
  return parts.length ? [parts.join(' and ')] : [];
}

/**
 * tcpdump needs CAP_NET_RAW only to open the capture: run as root, `-Z tcpdump` (Debian's user)
 * gives the rest of the run up to that user. Not root, the program needs the capability of its own
 * (`setcap cap_net_raw,cap_net_admin=eip /usr/bin/tcpdump`), or it says it may not capture.
 */
function dropRoot(): string[] {
  if (process.getuid?.() !== 0) return [];
  try {
    return /^tcpdump:/m.test(fs.readFileSync('/etc/passwd', 'utf8')) ? ['-Z', 'tcpdump'] : [];
  } catch {
    return [];
  }
}

export function planTool(type: unknown, body: Record<string, unknown>): ToolPlan {
  switch (type) {
    case 'Ping': {
      const timeout = int(body, 'timeout', 1, 10, 3);
      const count = int(body, 'count', 1, 20, 3);
      const psize = int(body, 'psize', 8, 65500, 56);
      const runs = hosts(body, 'dest_ips', { required: true }).map((h) => ({
        program: 'ping',
        args: ['-n', '-c', String(count), '-W', String(timeout), '-s', String(psize), '--', h],
      }));
      return { kind: 'exec', runs, timeoutMs: runs.length * (count * (timeout + 1) + 2) * 1000 };
    }
    case 'Telnet': {
      const [host] = hosts(body, 'dest_ips', { required: true, one: true });
      const port = int(body, 'dest_port', 1, 65535, 23);
      return { kind: 'telnet', host: host!, port, timeoutMs: int(body, 'timeout', 1, 30, 10) * 1000 };
    }
    case 'Nmap': {
      const targets = hosts(body, 'dest_ips', { required: true, cidr: true });
      const p = ports(body, 'dest_ports');
      const timeout = int(body, 'timeout', 1, 300, 60);
      const args = ['-n', '--host-timeout', `${timeout}s`, ...(p.length ? ['-p', p.join(',')] : []), '--', ...targets];
      return { kind: 'exec', runs: [{ program: 'nmap', args }], timeoutMs: (timeout + 10) * 1000 };
    }
    case 'Tcpdump': {
      const ifaces = interfaces(body, 'interfaces');
      const filter = tcpdumpFilter(
        hosts(body, 'src_ips'),
        ports(body, 'src_ports'),
        hosts(body, 'dest_ips'),
        ports(body, 'dest_ports'),
      );
      const timeout = int(body, 'timeout', 1, 60, 10);
      const count = int(body, 'count', 1, 1000, 100);
      const args = ['-n', '-l', '-c', String(count), '-i', ifaces.length === 1 ? ifaces[0]! : 'any', ...dropRoot()];
      return {
        kind: 'exec',
        runs: [{ program: 'tcpdump', args: [...args, '--', ...filter] }],
        timeoutMs: timeout * 1000,
      };
    }
    case 'Traceroute': {
      const [host] = hosts(body, 'dest_ips', { required: true, one: true });
      const timeout = int(body, 'timeout', 1, 10, 2);
      const args = ['-n', '-q', '1', '-w', String(timeout), '-m', '20', '--', host!];
      return { kind: 'exec', runs: [{ program: 'traceroute', args }], timeoutMs: (20 * timeout + 5) * 1000 };
    }
    default:
      throw new ToolParamError('tool_type', 'tool_required');
  }
}
