import ipaddr from 'ipaddr.js';

/**
 * IP groups of access-control rules: `*` (any address), a single IPv4 or IPv6 address, a CIDR
 * block (`10.0.0.0/8`, `fd00::/8`), or an inclusive range `a-b` of the same family
 * (`10.1.1.1-10.1.1.20`; for IPv4 also the short `10.1.1.1-20` of the last octet). Parsing is
 * ipaddr.js's; IPv4 must be the four-part decimal form (no `0x7f.1` surprises). An IPv4-mapped
 * IPv6 client address (`::ffff:10.0.0.1`, as Node reports on dual-stack sockets) is compared as IPv4.
 */
type Addr = ipaddr.IPv4 | ipaddr.IPv6;

export type IpItem =
  | { kind: 'any' }
  | { kind: 'ip'; addr: Addr }
  | { kind: 'cidr'; net: [Addr, number] }
  | { kind: 'range'; from: Addr; to: Addr };

/** Why an item was refused; the module turns it into a message in the user's language. */
export type IpItemError = 'ip_invalid' | 'ip_range_order' | 'ip_range_family';

function parseAddr(raw: string): Addr | undefined {
  const s = raw.trim();
  if (s.includes(':')) {
    if (!ipaddr.IPv6.isValid(s)) return undefined;
    return normalise(ipaddr.IPv6.parse(s));
  }
  return ipaddr.IPv4.isValidFourPartDecimal(s) ? ipaddr.IPv4.parse(s) : undefined;
}

function normalise(a: Addr): Addr {
  return a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress() ? (a as ipaddr.IPv6).toIPv4Address() : a;
}

function compare(a: Addr, b: Addr): number {
  const x = a.toByteArray();
  const y = b.toByteArray();
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

export function parseIpItem(raw: string): { item: IpItem } | { error: IpItemError } {
  const s = raw.trim();
  if (s === '*') return { item: { kind: 'any' } };
  if (s.includes('/')) {
    const [addr, bits] = s.split('/');
    const a = parseAddr(addr ?? '');
    const n = /^\d{1,3}$/.test(bits ?? '') ? Number(bits) : NaN;
    if (!a || !Number.isInteger(n) || n > (a.kind() === 'ipv4' ? 32 : 128)) return { error: 'ip_invalid' };
    return { item: { kind: 'cidr', net: [a, n] } };
  }
  const dash = s.indexOf('-');
  if (dash > 0) {
    const left = s.slice(0, dash);
    let right = s.slice(dash + 1);
    const from = parseAddr(left);
    if (from?.kind() === 'ipv4' && /^\d{1,3}$/.test(right.trim())) right = left.replace(/\.\d+$/, `.${right.trim()}`);
    const to = parseAddr(right);
    if (!from || !to) return { error: 'ip_invalid' };
    if (from.kind() !== to.kind()) return { error: 'ip_range_family' };
    if (compare(from, to) > 0) return { error: 'ip_range_order' };
    return { item: { kind: 'range', from, to } };
  }
  const a = parseAddr(s);
  return a ? { item: { kind: 'ip', addr: a } } : { error: 'ip_invalid' };
}

/** The first item of a group that is not valid, with why; undefined when all are. */
export function invalidIpItem(group: readonly string[]): { item: string; error: IpItemError } | undefined {
  for (const raw of group) {
    const r = parseIpItem(String(raw));
    if ('error' in r) return { item: String(raw), error: r.error };
  }
  return undefined;
}

function itemContains(item: IpItem, a: Addr): boolean {
  switch (item.kind) {
    case 'any':
      return true;
    case 'ip':
      return item.addr.kind() === a.kind() && compare(item.addr, a) === 0;
    case 'cidr':
      return item.net[0].kind() === a.kind() && a.match(item.net);
    case 'range':
      return item.from.kind() === a.kind() && compare(item.from, a) <= 0 && compare(a, item.to) <= 0;
  }
}

/**
 * Whether an address is in the group. Invalid items never match (they are refused on save);
 * an address that does not parse matches only `*`.
 */
export function ipInGroup(ip: string, group: readonly string[]): boolean {
  const a = parseAddr(ip);
  for (const raw of group) {
    const r = parseIpItem(String(raw));
    if ('error' in r) continue;
    if (r.item.kind === 'any') return true;
    if (a && itemContains(r.item, a)) return true;
  }
  return false;
}
