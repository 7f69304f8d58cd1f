import { describe, expect, it } from 'vitest';
import {
  groupPattern,
  hasNestedQuantifier,
  invalidRegexLine,
  matchCommand,
  plainCommandRegex,
} from './commandGroup.ts';
import { invalidIpItem, ipInGroup, parseIpItem } from './ipGroup.ts';
import { byPriority, decide, type AclRule } from './rules.ts';
import { checkSelector, selects, selectsAccount } from './selector.ts';
import { checkTimePeriods, inTimePeriods, localClock } from './timePeriod.ts';

describe('IP groups', () => {
  it('matches any address with *', () => {
    expect(ipInGroup('10.0.0.1', ['*'])).toBe(true);
    expect(ipInGroup('2001:db8::1', ['*'])).toBe(true);
    expect(ipInGroup('not-an-ip', ['*'])).toBe(true);
    expect(ipInGroup('10.0.0.1', [])).toBe(false);
  });

  it('matches single IPv4 and IPv6 addresses exactly, in any notation', () => {
    expect(ipInGroup('127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(ipInGroup('127.0.0.2', ['127.0.0.1'])).toBe(false);
    expect(ipInGroup('2001:db8::1', ['2001:0db8:0:0:0:0:0:1'])).toBe(true);
    expect(ipInGroup('::1', ['::1'])).toBe(true);
    expect(ipInGroup('::2', ['::1'])).toBe(false);
    // Node reports IPv4 clients of a dual-stack socket as IPv4-mapped IPv6.
    expect(ipInGroup('::ffff:127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(ipInGroup('127.0.0.1', ['::1'])).toBe(false);
  });

  it('matches CIDR blocks at their edges', () => {
    expect(ipInGroup('192.168.1.0', ['192.168.1.0/24'])).toBe(true);
    expect(ipInGroup('192.168.1.255', ['192.168.1.0/24'])).toBe(true);
    expect(ipInGroup('192.168.2.0', ['192.168.1.0/24'])).toBe(false);
    expect(ipInGroup('8.8.8.8', ['0.0.0.0/0'])).toBe(true);
    expect(ipInGroup('10.0.0.1', ['10.0.0.1/32'])).toBe(true);
    expect(ipInGroup('fd00::abcd', ['fd00::/8'])).toBe(true);
    expect(ipInGroup('fe00::1', ['fd00::/8'])).toBe(false);
    expect(ipInGroup('10.0.0.1', ['fd00::/8'])).toBe(false);
  });

  it('matches inclusive ranges, long and short IPv4 forms and IPv6', () => {
    expect(ipInGroup('10.1.1.1', ['10.1.1.1-10.1.1.20'])).toBe(true);
    expect(ipInGroup('10.1.1.20', ['10.1.1.1-10.1.1.20'])).toBe(true);
    expect(ipInGroup('10.1.1.21', ['10.1.1.1-10.1.1.20'])).toBe(false);
    expect(ipInGroup('10.1.0.255', ['10.1.1.1-10.1.1.20'])).toBe(false);
    expect(ipInGroup('10.1.1.9', ['10.1.1.1-20'])).toBe(true);
    expect(ipInGroup('10.1.1.21', ['10.1.1.1-20'])).toBe(false);
    expect(ipInGroup('10.1.255.0', ['10.1.1.0-10.2.0.0'])).toBe(true);
    expect(ipInGroup('2001:db8::ff', ['2001:db8::1-2001:db8::1:0'])).toBe(true);
    expect(ipInGroup('2001:db8::1:1', ['2001:db8::1-2001:db8::1:0'])).toBe(false);
  });

  it('matches when any item of the group holds', () => {
    expect(ipInGroup('172.16.0.5', ['10.0.0.0/8', '172.16.0.1-172.16.0.9', '::1'])).toBe(true);
    expect(ipInGroup('172.16.0.10', ['10.0.0.0/8', '172.16.0.1-172.16.0.9', '::1'])).toBe(false);
  });

  it('refuses malformed items with a reason', () => {
    for (const bad of [
      '',
      '10.0.0',
      '10.0.0.256',
      '0x7f.1',
      '10.0.0.0/33',
      'fd00::/129',
      'abc',
      '10.0.0.1/x',
      '1.2.3.4-',
    ])
      expect(parseIpItem(bad), bad).toEqual({ error: 'ip_invalid' });
    expect(parseIpItem('10.0.0.9-10.0.0.1')).toEqual({ error: 'ip_range_order' });
    expect(parseIpItem('10.0.0.1-::1')).toEqual({ error: 'ip_range_family' });
    expect(invalidIpItem(['*', '10.0.0.1', 'nope'])).toEqual({ item: 'nope', error: 'ip_invalid' });
    expect(invalidIpItem(['*', '10.0.0.0/8', '::1', '1.1.1.1-1.1.1.2'])).toBeUndefined();
    expect(ipInGroup('10.0.0.1', ['nope'])).toBe(false);
  });
});

// 2026-11-22 is a Sunday.
const at = (iso: string) => new Date(iso);
const week = (value: string) => [0, 1, 2, 3, 4, 5, 6].map((id) => ({ id, value }));

describe('time periods', () => {
  it('reads the weekday (0 = Sunday) and minute in the given time zone', () => {
    expect(localClock(at('2026-11-22T10:30:00Z'), 'UTC')).toEqual({ weekday: 0, minute: 630 });
    expect(localClock(at('2026-11-22T23:30:00Z'), 'Asia/Shanghai')).toEqual({ weekday: 1, minute: 450 });
    expect(localClock(at('2026-11-22T00:00:00Z'), 'UTC')).toEqual({ weekday: 0, minute: 0 });
    expect(localClock(at('2026-11-22T23:59:00Z'), 'UTC')).toEqual({ weekday: 0, minute: 1439 });
  });

  it('matches each weekday only by its own entry', () => {
    for (let d = 0; d < 7; d++) {
      const day = new Date(Date.UTC(2026, 10, 22 + d, 12, 0));
      const only = [{ id: d, value: '00:00~00:00' }];
      expect(inTimePeriods(only, day, 'UTC'), `day ${d}`).toBe(true);
      const other = [{ id: (d + 1) % 7, value: '00:00~00:00' }];
      expect(inTimePeriods(other, day, 'UTC'), `day ${d} other`).toBe(false);
    }
  });

  it('treats an end of 00:00 as 24:00 and is inclusive by minute at both ends', () => {
    const allDay = [{ id: 0, value: '00:00~00:00' }];
    expect(inTimePeriods(allDay, at('2026-11-22T00:00:00Z'), 'UTC')).toBe(true);
    expect(inTimePeriods(allDay, at('2026-11-22T23:59:59Z'), 'UTC')).toBe(true);
    const office = [{ id: 0, value: '09:00~18:00' }];
    expect(inTimePeriods(office, at('2026-11-22T08:59:59Z'), 'UTC')).toBe(false);
    expect(inTimePeriods(office, at('2026-11-22T09:00:00Z'), 'UTC')).toBe(true);
    expect(inTimePeriods(office, at('2026-11-22T18:00:59Z'), 'UTC')).toBe(true);
    expect(inTimePeriods(office, at('2026-11-22T18:01:00Z'), 'UTC')).toBe(false);
    const evening = [{ id: 0, value: '22:00~00:00' }];
    expect(inTimePeriods(evening, at('2026-11-22T23:59:00Z'), 'UTC')).toBe(true);
    expect(inTimePeriods(evening, at('2026-11-22T21:59:00Z'), 'UTC')).toBe(false);
  });

  it('covers a night as two days (overnight periods are refused on save)', () => {
    const night = [
      { id: 0, value: '22:00~00:00' },
      { id: 1, value: '00:00~06:00' },
    ];
    expect(inTimePeriods(night, at('2026-11-22T23:00:00Z'), 'UTC')).toBe(true);
    expect(inTimePeriods(night, at('2026-11-23T00:00:00Z'), 'UTC')).toBe(true);
    expect(inTimePeriods(night, at('2026-11-23T05:30:00Z'), 'UTC')).toBe(true);
    expect(inTimePeriods(night, at('2026-11-23T06:01:00Z'), 'UTC')).toBe(false);
    expect(checkTimePeriods([{ id: 0, value: '22:00~06:00' }])).toEqual({
      error: { code: 'time_period_order', value: '22:00~06:00' },
    });
  });

  it('matches any of several periods of a day joined by 、', () => {
    const split = [{ id: 0, value: '00:00~07:30、10:00~13:00' }];
    expect(inTimePeriods(split, at('2026-11-22T07:30:00Z'), 'UTC')).toBe(true);
    expect(inTimePeriods(split, at('2026-11-22T08:00:00Z'), 'UTC')).toBe(false);
    expect(inTimePeriods(split, at('2026-11-22T12:59:00Z'), 'UTC')).toBe(true);
  });

  it('never matches an empty day or an empty list', () => {
    expect(inTimePeriods(week(''), at('2026-11-22T12:00:00Z'), 'UTC')).toBe(false);
    expect(inTimePeriods([], at('2026-11-22T12:00:00Z'), 'UTC')).toBe(false);
  });

  it('reads the periods in the server time zone', () => {
    const mondayMorning = [{ id: 1, value: '07:00~08:00' }];
    // Sunday 23:30 UTC is Monday 07:30 in Shanghai.
    expect(inTimePeriods(mondayMorning, at('2026-11-22T23:30:00Z'), 'Asia/Shanghai')).toBe(true);
    expect(inTimePeriods(mondayMorning, at('2026-11-22T23:30:00Z'), 'UTC')).toBe(false);
  });

  it('validates the format and normalises the order of days', () => {
    expect(checkTimePeriods(week('00:00~00:00'))).toEqual({ value: week('00:00~00:00') });
    expect(
      checkTimePeriods([
        { id: 3, value: '' },
        { id: 1, value: '08:00~09:00' },
      ]),
    ).toEqual({
      value: [
        { id: 1, value: '08:00~09:00' },
        { id: 3, value: '' },
      ],
    });
    expect(checkTimePeriods('x')).toEqual({ error: { code: 'time_period_not_list' } });
    expect(checkTimePeriods([{ id: 7, value: '' }])).toMatchObject({ error: { code: 'time_period_weekday' } });
    expect(
      checkTimePeriods([
        { id: 1, value: '' },
        { id: 1, value: '' },
      ]),
    ).toMatchObject({
      error: { code: 'time_period_duplicate_day' },
    });
    for (const bad of ['9:00~10:00', '24:00~00:00', '08:00-09:00', '08:00~09:60', '08:00~09:00,10:00~11:00', '~'])
      expect(checkTimePeriods([{ id: 1, value: bad }]), bad).toEqual({
        error: { code: 'time_period_format', value: bad },
      });
  });
});

const cmd = (content: string, type: 'command' | 'regex' = 'command', ignore_case = true) => ({
  type,
  content,
  ignore_case,
});

describe('command groups', () => {
  it('builds the regex of plain commands: escaped, spaces as \\s+, word-anchored', () => {
    expect(plainCommandRegex('rm')).toBe('\\brm\\b');
    expect(plainCommandRegex('rm   -rf  /')).toBe('\\brm\\s+\\-rf\\s+\\/');
    expect(plainCommandRegex('./evil.sh')).toBe('\\.\\/evil\\.sh\\b');
    expect(groupPattern(cmd('reboot\n\nshutdown\r\n'))).toBe('\\breboot\\b|\\bshutdown\\b');
  });

  it('does not catch a longer command that starts with a plain one', () => {
    const g = cmd('rm');
    expect(matchCommand(g, 'rm file')).toBe('rm');
    expect(matchCommand(g, 'rmdir foo')).toBeUndefined();
    expect(matchCommand(g, 'farm')).toBeUndefined();
    expect(matchCommand(g, 'ls; rm x')).toBe('rm');
  });

  it('catches plain commands with any whitespace between words', () => {
    const g = cmd('rm -rf /');
    expect(matchCommand(g, 'rm -rf /')).toBe('rm -rf /');
    expect(matchCommand(g, 'sudo rm    -rf\t/')).toBe('rm    -rf\t/');
    expect(matchCommand(g, 'rm -r /')).toBeUndefined();
    expect(matchCommand(g, 'xrm -rf /')).toBeUndefined();
  });

  it('catches a plain command that starts with punctuation after a space', () => {
    expect(matchCommand(cmd('./evil.sh'), 'cd /tmp && ./evil.sh')).toBe('./evil.sh');
    expect(matchCommand(cmd('./evil.sh'), './evil.shx')).toBeUndefined();
  });

  it('ignores case when asked, and only then', () => {
    expect(matchCommand(cmd('reboot'), 'REBOOT now')).toBe('REBOOT');
    expect(matchCommand(cmd('reboot', 'command', false), 'REBOOT now')).toBeUndefined();
    expect(matchCommand(cmd('^shut', 'regex', false), 'Shutdown')).toBeUndefined();
    expect(matchCommand(cmd('^shut', 'regex', true), 'Shutdown')).toBe('Shut');
  });

  it('treats each line of a regex group as an alternative', () => {
    const g = cmd('^rm\\s+-rf\ndd\\s+if=', 'regex');
    expect(matchCommand(g, 'rm  -rf /')).toBe('rm  -rf');
    expect(matchCommand(g, 'dd if=/dev/zero')).toBe('dd if=');
    expect(matchCommand(g, 'echo rm -rf')).toBeUndefined();
    expect(invalidRegexLine('ok\n(unclosed')).toMatchObject({ line: '(unclosed' });
    expect(invalidRegexLine('ok\n^a+$')).toBeUndefined();
  });

  it('refuses regexes that repeat a repeating group (they can take exponential time)', () => {
    for (const bad of ['(a+)+$', '(\\w*\\s?)*x', '([a-z]+)*', '((ab)+)+', '(?:x\\d+){2,}'])
      expect(hasNestedQuantifier(bad), bad).toBe(true);
    for (const ok of ['^rm\\s+-rf', '(ab)+', '(a|b)*', '\\d+', '[+*]+', '(?:x+)?', 'a{2,3}b+', '\\(a+\\)+'])
      expect(hasNestedQuantifier(ok), ok).toBe(false);
    expect(invalidRegexLine('ok\n(a+)+$')).toEqual({ line: '(a+)+$', error: 'nested quantifier', nested: true });
    expect(
      checkSelector({ type: 'attrs', attrs: [{ name: 'name', match: 'regex', value: '(a+)+' }] }, ['name']),
    ).toEqual({
      error: { code: 'selector_attr_regex', value: '(a+)+' },
    });
  });
});

describe('selectors', () => {
  const USER_ATTRS = ['name', 'username', 'email', 'comment', 'groups'];

  it('accepts all, ids and attribute rules, refusing empty or unknown ones', () => {
    expect(checkSelector({ type: 'all' }, USER_ATTRS)).toEqual({ value: { type: 'all' } });
    expect(checkSelector({ type: 'ids', ids: ['a', { id: 'b' }, 'a'] }, USER_ATTRS)).toEqual({
      value: { type: 'ids', ids: ['a', 'b'] },
    });
    expect(checkSelector({ type: 'ids', ids: [] }, USER_ATTRS)).toEqual({ error: { code: 'selector_ids_empty' } });
    expect(checkSelector({ type: 'attrs', attrs: [] }, USER_ATTRS)).toEqual({
      error: { code: 'selector_attrs_empty' },
    });
    expect(checkSelector({ type: 'x' }, USER_ATTRS)).toEqual({ error: { code: 'selector_type' } });
    expect(checkSelector(['a'], USER_ATTRS)).toEqual({ error: { code: 'selector_type' } });
    expect(
      checkSelector({ type: 'attrs', attrs: [{ name: 'password', match: 'exact', value: 'x' }] }, USER_ATTRS),
    ).toEqual({
      error: { code: 'selector_attr_name', value: 'password' },
    });
    expect(checkSelector({ type: 'attrs', attrs: [{ name: 'name', match: 'like', value: 'x' }] }, USER_ATTRS)).toEqual({
      error: { code: 'selector_attr_match', value: 'like' },
    });
    expect(checkSelector({ type: 'attrs', attrs: [{ name: 'name', match: 'regex', value: '(' }] }, USER_ATTRS)).toEqual(
      {
        error: { code: 'selector_attr_regex', value: '(' },
      },
    );
  });

  it('selects by every attribute rule at once, relations by any of their values', () => {
    const alice = { username: 'alice', email: 'alice@corp.example', groups: ['g1', 'Ops'], age: 30 };
    const sel = (attrs: unknown[]) => ({ type: 'attrs' as const, attrs: attrs as never });
    const pick = (attrs: unknown[]) => selects(sel(attrs), 'id-a', alice);
    expect(pick([{ name: 'username', match: 'exact', value: 'alice' }])).toBe(true);
    expect(pick([{ name: 'username', match: 'exact', value: 'alic' }])).toBe(false);
    expect(pick([{ name: 'username', match: 'not', value: 'bob' }])).toBe(true);
    expect(pick([{ name: 'email', match: 'endswith', value: '@corp.example' }])).toBe(true);
    expect(pick([{ name: 'email', match: 'startswith', value: 'bob' }])).toBe(false);
    expect(pick([{ name: 'email', match: 'contains', value: 'corp' }])).toBe(true);
    expect(pick([{ name: 'username', match: 'regex', value: '^a.+e$' }])).toBe(true);
    expect(pick([{ name: 'username', match: 'in', value: ['bob', 'alice'] }])).toBe(true);
    expect(pick([{ name: 'groups', match: 'm2m', value: ['Ops'] }])).toBe(true);
    expect(pick([{ name: 'groups', match: 'm2m', value: ['Dev'] }])).toBe(false);
    expect(pick([{ name: 'age', match: 'gte', value: 30 }])).toBe(true);
    expect(pick([{ name: 'age', match: 'gt', value: 30 }])).toBe(false);
    expect(pick([{ name: 'age', match: 'lt', value: 31 }])).toBe(true);
    expect(pick([{ name: 'age', match: 'lte', value: 29 }])).toBe(false);
    expect(
      pick([
        { name: 'username', match: 'exact', value: 'alice' },
        { name: 'groups', match: 'm2m', value: ['Dev'] },
      ]),
    ).toBe(false);
    expect(
      selects({ type: 'attrs', attrs: [{ name: 'address', match: 'ip_in', value: ['10.0.0.0/8'] }] }, 'h', {
        address: '10.2.3.4',
      }),
    ).toBe(true);
    expect(selects({ type: 'ids', ids: ['id-a'] }, 'id-a', {})).toBe(true);
    expect(selects({ type: 'ids', ids: ['id-a'] }, 'id-b', {})).toBe(false);
    expect(selects({ type: 'all' }, 'x', {})).toBe(true);
  });

  it('selects accounts by username or alias, or all of them with @ALL or *', () => {
    expect(selectsAccount(['root'], { username: 'root' })).toBe(true);
    expect(selectsAccount(['root'], { username: 'admin' })).toBe(false);
    expect(selectsAccount(['ops'], { username: 'root', alias: 'ops' })).toBe(true);
    expect(selectsAccount(['@ALL'], { username: 'anyone' })).toBe(true);
    expect(selectsAccount(['*'], { username: 'anyone' })).toBe(true);
  });
});

const rule = (o: Partial<AclRule> & { name: string; reviewers?: unknown[] }): AclRule & { reviewers?: unknown[] } => ({
  id: o.name,
  priority: 50,
  action: 'reject',
  is_active: true,
  users: { type: 'all' },
  rules: { ip_group: ['*'], time_period: week('00:00~00:00') },
  ...o,
});
const alice = { id: 'u1', attrs: { username: 'alice' } };

describe('deciding which rule applies', () => {
  it('takes the lowest priority first, then the name; inactive rules never apply', () => {
    const rules = [
      rule({ name: 'b', priority: 10, action: 'accept' }),
      rule({ name: 'a', priority: 10, action: 'reject' }),
      rule({ name: 'first', priority: 1, action: 'review', is_active: false }),
      rule({ name: 'last', priority: 100, action: 'reject' }),
    ];
    expect(byPriority(rules).map((r) => r.name)).toEqual(['first', 'a', 'b', 'last']);
    expect(decide(rules, { user: alice, ip: '1.2.3.4' })?.rule.name).toBe('a');
  });

  it('skips rules whose user, address or time does not hold, and review rules without reviewers', () => {
    const now = at('2026-11-22T12:00:00Z');
    const rules = [
      rule({ name: 'bob only', priority: 1, users: { type: 'ids', ids: ['u2'] } }),
      rule({ name: 'other net', priority: 2, rules: { ip_group: ['10.0.0.0/8'], time_period: week('00:00~00:00') } }),
      rule({ name: 'nights', priority: 3, rules: { ip_group: ['*'], time_period: week('00:00~06:00') } }),
      rule({ name: 'nobody reviews', priority: 4, action: 'review', reviewers: [] }),
      rule({ name: 'accept', priority: 5, action: 'accept' }),
    ];
    const d = decide(rules, { user: alice, ip: '192.168.0.1', at: now, timeZone: 'UTC' });
    expect(d).toMatchObject({ action: 'accept', rule: { name: 'accept' } });
    expect(decide(rules, { user: alice, ip: '10.1.1.1', at: now, timeZone: 'UTC' })?.rule.name).toBe('other net');
    expect(decide([], { user: alice })).toBeUndefined();
  });

  it('matches asset, account and connect-method rules only for their objects', () => {
    const web = { id: 'a1', attrs: { name: 'web-1', platform: ['Linux'] } };
    const r = rule({
      name: 'linux root',
      assets: { type: 'attrs', attrs: [{ name: 'platform', match: 'm2m', value: ['Linux'] }] },
      accounts: ['root'],
    });
    expect(decide([r], { user: alice, asset: web, account: { username: 'root' } })?.action).toBe('reject');
    expect(decide([r], { user: alice, asset: web, account: { username: 'app' } })).toBeUndefined();
    expect(decide([r], { user: alice, account: { username: 'root' } })).toBeUndefined();
    const m = rule({ name: 'no rdp', connect_methods: ['mstsc'], rules: undefined });
    expect(decide([m], { user: alice, connectMethod: 'mstsc' })?.action).toBe('reject');
    expect(decide([m], { user: alice, connectMethod: 'web_cli' })).toBeUndefined();
  });

  it('lets the first command filter whose groups catch the command decide, saying what was caught', () => {
    const danger = { id: 'g1', name: 'danger', ...cmd('rm -rf\nreboot') };
    const ls = { id: 'g2', name: 'ls', ...cmd('ls') };
    const rules = [
      rule({ name: 'warn ls', priority: 20, action: 'warning', command_groups: [ls], rules: undefined }),
      rule({ name: 'block danger', priority: 10, action: 'reject', command_groups: [danger], rules: undefined }),
      rule({
        name: 'accept rest',
        priority: 30,
        action: 'accept',
        command_groups: [{ ...cmd('.*', 'regex') }],
        rules: undefined,
      }),
    ];
    expect(decide(rules, { user: alice, command: 'sudo reboot' })).toMatchObject({
      action: 'reject',
      matched: { group: { name: 'danger' }, text: 'reboot' },
    });
    expect(decide(rules, { user: alice, command: 'ls -la' })?.action).toBe('warning');
    expect(decide(rules, { user: alice, command: 'lsblk' })?.action).toBe('accept');
  });
});
