import { sql, type Kysely } from 'kysely';
import { ASSET_CATEGORIES, ROOT_ORG_ID, type Language } from '@gatehouse/contract';
import type { DB } from '../../platform/db/schema.ts';
import { orgMemberIds } from '../rbac/orgMembers.ts';
import type { DayRange } from './dayRanges.ts';

/**
 * The dashboard's aggregates, each one SQL query (counts and groups, no rows brought back),
 * scoped to the org: sessions, commands, transfers and operate logs by `org_id`; users, login
 * and password change logs by the org's members; every org in the global one. The indexes they
 * read are migration 0750's (range on the date column, the rest covered).
 */
export class Metrics {
  private readonly org: string | undefined;

  constructor(
    private readonly db: Kysely<DB>,
    orgId: string,
  ) {
    this.org = orgId === ROOT_ORG_ID ? undefined : orgId;
  }

  private sessions(from?: string, to?: string) {
    let q = this.db.selectFrom('terminal_session');
    if (this.org) q = q.where('org_id', '=', this.org);
    if (from) q = q.where('date_start', '>=', from);
    if (to) q = q.where('date_start', '<', to);
    return q;
  }

  private memberUsernames() {
    return this.db.selectFrom('users_user').select('username').where('id', 'in', orgMemberIds(this.db, this.org!));
  }

  private loginLogs(from: string, to?: string) {
    let q = this.db.selectFrom('audits_userloginlog').where('datetime', '>=', from);
    if (to) q = q.where('datetime', '<', to);
    if (this.org) q = q.where('username', 'in', this.memberUsernames());
    return q;
  }

  /**
   * The local day each row falls in, as one CASE over the days' boundaries: a per-day series is
   * one grouped range scan, not a query per day.
   */
  private static dayBucket(column: string, days: DayRange[]) {
    const whens = days.map((d, i) => sql`WHEN ${sql.ref(column)} < ${d.end} THEN ${sql.lit(i)}`);
    return sql<number>`CASE ${sql.join(whens, sql` `)} END`;
  }

  private perDayOnce?: Promise<{ sessions: number[]; users: number[]; assets: number[] }>;

  /** Sessions started on each day, with their distinct users and assets (read once per request). */
  sessionsPerDay(days: DayRange[]): Promise<{ sessions: number[]; users: number[]; assets: number[] }> {
    return (this.perDayOnce ??= (async () => {
      const rows = await this.sessions(days[0]!.start, days.at(-1)!.end)
        .select((e) => [
          Metrics.dayBucket('date_start', days).as('day'),
          e.fn.countAll().as('n'),
          e.fn.count('user').distinct().as('u'),
          e.fn.count('asset').distinct().as('a'),
        ])
        .groupBy('day')
        .execute();
      const out = { sessions: days.map(() => 0), users: days.map(() => 0), assets: days.map(() => 0) };
      for (const r of rows) {
        const i = Number(r.day);
        out.sessions[i] = Number(r.n);
        out.users[i] = Number(r.u);
        out.assets[i] = Number(r.a);
      }
      return out;
    })());
  }

  /** Successful sign-ins on each day. */
  async loginsPerDay(days: DayRange[]): Promise<number[]> {
    const rows = await this.loginLogs(days[0]!.start, days.at(-1)!.end)
      .where('status', '=', true)
      .select((e) => [Metrics.dayBucket('datetime', days).as('day'), e.fn.countAll().as('n')])
      .groupBy('day')
      .execute();
    const out = days.map(() => 0);
    for (const r of rows) out[Number(r.day)] = Number(r.n);
    return out;
  }

  private static n(row: { n: unknown } | undefined): number {
    return Number(row?.n ?? 0);
  }

  async users(since?: string): Promise<number> {
    let q = this.db.selectFrom('users_user').where('is_service_account', '=', false);
    if (this.org) q = q.where('id', 'in', orgMemberIds(this.db, this.org));
    if (since) q = q.where('date_joined', '>=', since);
    return Metrics.n(await q.select((e) => e.fn.countAll().as('n')).executeTakeFirst());
  }

  async assets(since?: string): Promise<number> {
    let q = this.db.selectFrom('assets_asset');
    if (this.org) q = q.where('org_id', '=', this.org);
    if (since) q = q.where('date_created', '>=', since);
    return Metrics.n(await q.select((e) => e.fn.countAll().as('n')).executeTakeFirst());
  }

  async assetTypes(lang: Language): Promise<{ type: string; label: string; total: number }[]> {
    let q = this.db.selectFrom('assets_asset');
    if (this.org) q = q.where('org_id', '=', this.org);
    const rows = await q
      .select(['type', (e) => e.fn.countAll().as('n')])
      .groupBy('type')
      .orderBy('type')
      .execute();
    const labels = new Map(ASSET_CATEGORIES.flatMap((c) => c.types.map((t) => [t.value, t.label[lang]] as const)));
    return rows.map((r) => ({ type: r.type, label: labels.get(r.type) ?? r.type, total: Number(r.n) }));
  }

  /** Sessions started in the range; `finished` / `failed` narrow them. */
  async sessionCount(from: string, to?: string, only?: 'finished' | 'failed'): Promise<number> {
    let q = this.sessions(from, to);
    if (only === 'finished') q = q.where('is_finished', '=', true);
    if (only === 'failed') q = q.where('is_success', '=', false);
    return Metrics.n(await q.select((e) => e.fn.countAll().as('n')).executeTakeFirst());
  }

  /** Distinct users (`user`) or assets (`asset`) of the sessions started in the range. */
  async distinctInSessions(column: 'user' | 'asset', from: string, to?: string): Promise<number> {
    const q = this.sessions(from, to).select((e) => e.fn.count(column).distinct().as('n'));
    return Metrics.n(await q.executeTakeFirst());
  }

  private onlineOnce?: Promise<{ sessions: number; users: number }>;
  private commandsOnce?: Promise<{ total: number; danger: number }>;

  /** Sessions not finished and their distinct users (read once per request). */
  online(): Promise<{ sessions: number; users: number }> {
    return (this.onlineOnce ??= this.readOnline());
  }

  private async readOnline(): Promise<{ sessions: number; users: number }> {
    let q = this.db.selectFrom('terminal_session').where('is_finished', '=', false);
    if (this.org) q = q.where('org_id', '=', this.org);
    const r = await q
      .select((e) => [e.fn.countAll().as('n'), e.fn.count('user_id').distinct().as('u')])
      .executeTakeFirst();
    return { sessions: Number(r?.n ?? 0), users: Number(r?.u ?? 0) };
  }

  async loginLogCount(from: string, to?: string, successOnly = false): Promise<number> {
    let q = this.loginLogs(from, to);
    if (successOnly) q = q.where('status', '=', true);
    return Metrics.n(await q.select((e) => e.fn.countAll().as('n')).executeTakeFirst());
  }

  async operateLogCount(from: string): Promise<number> {
    let q = this.db.selectFrom('audits_operatelog').where('datetime', '>=', from);
    if (this.org) q = q.where('org_id', '=', this.org);
    return Metrics.n(await q.select((e) => e.fn.countAll().as('n')).executeTakeFirst());
  }

  async passwordChangeCount(from: string): Promise<number> {
    let q = this.db.selectFrom('audits_passwordchangelog').where('datetime', '>=', from);
    if (this.org) q = q.where('user_id', 'in', orgMemberIds(this.db, this.org));
    return Metrics.n(await q.select((e) => e.fn.countAll().as('n')).executeTakeFirst());
  }

  async ftpLogCount(from: string): Promise<number> {
    let q = this.db.selectFrom('audits_ftplog').where('date_start', '>=', from);
    if (this.org) q = q.where('org_id', '=', this.org);
    return Metrics.n(await q.select((e) => e.fn.countAll().as('n')).executeTakeFirst());
  }

  /** Job executions created since `from`: all, still running (or waiting), or failed (timeouts included). */
  async jobLogCount(from: string, only?: 'running' | 'failed'): Promise<number> {
    let q = this.db.selectFrom('ops_jobexecution').where('date_created', '>=', from);
    if (this.org) q = q.where('org_id', '=', this.org);
    if (only === 'running') q = q.where('status', 'in', ['pending', 'running']);
    if (only === 'failed') q = q.where('status', 'in', ['failed', 'timeout']);
    return Metrics.n(await q.select((e) => e.fn.countAll().as('n')).executeTakeFirst());
  }

  /** Commands since `from`, and those a command rule flagged (risk level other than accept). */
  commands(from: string): Promise<{ total: number; danger: number }> {
    return (this.commandsOnce ??= this.readCommands(from));
  }

  private async readCommands(from: string): Promise<{ total: number; danger: number }> {
    let q = this.db.selectFrom('terminal_command').where('timestamp_ms', '>=', Date.parse(from));
    if (this.org) q = q.where('org_id', '=', this.org);
    const r = await q
      .select((e) => [
        e.fn.countAll().as('n'),
        e.fn.sum(sql<number>`case when ${sql.ref('risk_level')} <> 0 then 1 else 0 end`).as('d'),
      ])
      .executeTakeFirst();
    return { total: Number(r?.n ?? 0), danger: Number(r?.d ?? 0) };
  }

  /** Top 10 users or assets by sessions started since `from`: `[{user|asset, total, last}]`. */
  async top10(column: 'user' | 'asset', from: string): Promise<Record<string, unknown>[]> {
    const rows = await this.sessions(from)
      .select((e) => [e.ref(column).as('key'), e.fn.countAll().as('total'), e.fn.max('date_start').as('last')])
      .groupBy(column)
      .orderBy('total', 'desc')
      .orderBy(column)
      .limit(10)
      .execute();
    return rows.map((r) => ({ [column]: r.key, total: Number(r.total), last: r.last }));
  }

  async lastSessions(
    from: string,
  ): Promise<{ user: string; asset: string; is_finished: boolean; date_start: string }[]> {
    const rows = await this.sessions(from)
      .select(['user', 'asset', 'is_finished', 'date_start'])
      .orderBy('date_start', 'desc')
      .limit(10)
      .execute();
    return rows.map((r) => ({
      user: r.user,
      asset: r.asset,
      is_finished: r.is_finished === true || r.is_finished === 1,
      date_start: r.date_start,
    }));
  }
}
