/**
 * The `lan` provider's `ip_group`: IPv4 addresses, CIDRs (`10.0.0.0/24`) and ranges
 * (`10.0.0.5-10.0.0.40` or `10.0.0.5-40`), expanded lazily. The whole group is bounded by
 * `MAX_LAN_ADDRESSES` (4,096, a /20): a /8 is refused at save, not scanned for hours.
 */
export const MAX_LAN_ADDRESSES = 4096;
export const MAX_LAN_ENTRIES = 256;

export interface IpRange {
  first: number;
  last: number;
}

export function ipToInt(s: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s.trim());
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!;
}

export const intToIp = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

/** One entry as a range, or undefined when it is not an address, CIDR or range. */
export function parseEntry(entry: string): IpRange | undefined {
  const e = entry.trim();
  const cidr = /^([\d.]+)\/(\d{1,2})$/.exec(e);
  if (cidr) {
    const base = ipToInt(cidr[1]!);
    const bits = Number(cidr[2]);
    if (base === undefined || bits > 32) return undefined;
    const size = 2 ** (32 - bits);
    const first = Math.floor(base / size) * size;
    // Network and broadcast addresses are no hosts (except /31 and /32).
    return bits >= 31 ? { first, last: first + size - 1 } : { first: first + 1, last: first + size - 2 };
  }
  const dash = /^([\d.]+)-([\d.]+)$/.exec(e);
  if (dash) {
    const first = ipToInt(dash[1]!);
    let last = ipToInt(dash[2]!);
    if (last === undefined && first !== undefined && /^\d{1,3}$/.test(dash[2]!) && Number(dash[2]) < 256)
      last = (first & 0xffffff00) + Number(dash[2]);
    return first !== undefined && last !== undefined && last >= first ? { first, last } : undefined;
  }
  const one = ipToInt(e);
  return one === undefined ? undefined : { first: one, last: one };
}

export type GroupCheck = { ok: true; ranges: IpRange[]; count: number } | { ok: false; bad?: string; count?: number };

export function checkGroup(entries: string[]): GroupCheck {
  if (!entries.length || entries.length > MAX_LAN_ENTRIES) return { ok: false, count: entries.length };
  const ranges: IpRange[] = [];
  let count = 0;
  for (const e of entries) {
    const r = parseEntry(e);
    if (!r) return { ok: false, bad: e };
    ranges.push(r);
    count += r.last - r.first + 1;
    if (count > MAX_LAN_ADDRESSES) return { ok: false, count };
  }
  return { ok: true, ranges, count };
}

/** Each address once, in the order given. */
export function* addresses(ranges: IpRange[]): Generator<string> {
  const seen = new Set<number>();
  for (const r of ranges)
    for (let n = r.first; n <= r.last; n++) {
      if (seen.has(n)) continue;
      seen.add(n);
      yield intToIp(n);
    }
}
