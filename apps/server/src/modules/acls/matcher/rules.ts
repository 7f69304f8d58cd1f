import { matchCommand, type CommandGroupLike } from './commandGroup.ts';
import { ipInGroup } from './ipGroup.ts';
import { selects, selectsAccount, type Attrs, type Selector } from './selector.ts';
import { inTimePeriods, type DayPeriods } from './timePeriod.ts';

/**
 * The one answer to "which access-control rule applies": sign-in (login rules), connection
 * tokens (login-asset and connect-method rules), the gateway and job runs (command filters) all
 * ask here. Pure: the caller loads the candidate rules and describes the situation.
 *
 * Order (the contract's and the original server's): `priority` ascending (1 first), then name;
 * inactive rules never apply. The first rule whose every condition holds decides.
 */
export type AclAction = 'reject' | 'accept' | 'review' | 'warning';

export interface AclRules {
  ip_group: string[];
  time_period: DayPeriods[];
}

export interface AclRule {
  id: string;
  name: string;
  priority: number;
  action: AclAction;
  is_active: boolean;
  users: Selector;
  rules?: AclRules;
  assets?: Selector;
  accounts?: string[];
  command_groups?: CommandGroupLike[];
  connect_methods?: string[];
}

export interface Subject {
  id: string;
  attrs: Attrs;
}

export interface Situation {
  user: Subject;
  /** The client address. */
  ip?: string;
  at?: Date;
  /** IANA zone in which time periods are read (the server's configured zone). */
  timeZone?: string;
  asset?: Subject;
  account?: { username: string; alias?: string };
  command?: string;
  connectMethod?: string;
}

export interface Decision<R extends AclRule = AclRule> {
  rule: R;
  action: AclAction;
  /** For command filters: the text of the command that the group caught, and which group. */
  matched?: { group: CommandGroupLike; text: string };
}

export function byPriority<R extends AclRule>(rules: readonly R[]): R[] {
  return [...rules].sort((a, b) => a.priority - b.priority || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function rulesHold(r: AclRules | undefined, s: Situation): boolean {
  if (!r) return true;
  if (!ipInGroup(s.ip ?? '', r.ip_group ?? ['*'])) return false;
  return inTimePeriods(r.time_period ?? [], s.at ?? new Date(), s.timeZone ?? systemTimeZone());
}

/**
 * Whether an active rule is about these subjects: its user, asset, account and connect-method
 * selectors, not the moment, address or command. What a connection token hands a terminal
 * component (the command filter rules that component then applies to each command).
 */
export function ruleSelects(
  rule: AclRule,
  s: Pick<Situation, 'user' | 'asset' | 'account' | 'connectMethod'>,
): boolean {
  if (!rule.is_active) return false;
  if (!selects(rule.users, s.user.id, s.user.attrs)) return false;
  if (rule.assets && (!s.asset || !selects(rule.assets, s.asset.id, s.asset.attrs))) return false;
  if (rule.accounts && (!s.account || !selectsAccount(rule.accounts, s.account))) return false;
  if (rule.connect_methods && (!s.connectMethod || !rule.connect_methods.includes(s.connectMethod))) return false;
  return true;
}

/**
 * Whether every condition of a rule but its commands holds: subjects, address and time. A command
 * filter rule for which it does may catch any command here and now (the gateway refuses an exec,
 * whose input it cannot read line by line, while a reject or review rule does).
 */
export function ruleHoldsExceptCommand(rule: AclRule, s: Situation): boolean {
  return ruleSelects(rule, s) && rulesHold(rule.rules, s);
}

/** Whether every condition of one rule holds in the situation (ignoring priority). */
export function ruleApplies(rule: AclRule, s: Situation): { applies: boolean; matched?: Decision['matched'] } {
  if (!ruleSelects(rule, s)) return { applies: false };
  if (!rulesHold(rule.rules, s)) return { applies: false };
  if (rule.command_groups) {
    if (s.command === undefined) return { applies: false };
    for (const group of rule.command_groups) {
      const text = matchCommand(group, s.command);
      if (text !== undefined) return { applies: true, matched: { group, text } };
    }
    return { applies: false };
  }
  return { applies: true };
}

/**
 * The rule that decides, or undefined when none applies. A `review` rule without reviewers is
 * skipped, as in the original (nobody could approve it).
 */
export function decide<R extends AclRule & { reviewers?: unknown[] }>(
  rules: readonly R[],
  s: Situation,
): Decision<R> | undefined {
  for (const rule of byPriority(rules)) {
    if (rule.action === 'review' && Array.isArray(rule.reviewers) && rule.reviewers.length === 0) continue;
    const r = ruleApplies(rule, s);
    if (r.applies) return { rule, action: rule.action, ...(r.matched ? { matched: r.matched } : {}) };
  }
  return undefined;
}

export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
