import { COMMAND_COUNT_CAP } from '@gatehouse/contract';
import { f } from '../../resource/fields.ts';
import { ApiError } from '../../http/errors.ts';
import { parseDateTime } from '../../resource/coerce.ts';
import { rt } from '../../resource/messages.ts';
import type { AnyQuery, ResourceCtx, ResourceDef } from '../../resource/types.ts';
import { formatDateTime } from '../../http/datetime.ts';
import { TM as M } from './gateway/gatewayError.ts';
import { inputContains } from './commandSearch.ts';

/**
 * Commands run in gateway sessions (`/api/v1/terminal/commands/`): read-only, stored by the
 * gateway at Enter (input, risk level, rule) with the output excerpt added when the command is
 * done. `timestamp` is epoch seconds as the contract says (kept in ms, so commands of one second
 * stay in order); `date_from`/`date_to` compare with it.
 * The original answers nothing without `command_storage_id` or `session_id` (one storage at a
 * time); here there is one storage, the database, so the list answers without either.
 * Its `count` stops at COMMAND_COUNT_CAP, as the original's Elasticsearch storage's total does.
 */
const t = 'terminal_command';

function epochFilter(op: '>=' | '<=', key: string) {
  return (q: AnyQuery, value: string, ctx: ResourceCtx) => {
    const d = parseDateTime(value);
    if (!d) throw new ApiError(400, { [key]: [rt(ctx.req.lang, 'invalid_datetime')] });
    return q.where(`${t}.timestamp_ms` as never, op, d.getTime() as never);
  };
}

export const commandResource: ResourceDef = {
  model: 'command',
  app: 'terminal',
  url: '/api/v1/terminal/commands/',
  table: t,
  label: M.model_command,
  orgScoped: true,
  defaultOrder: ['-timestamp'],
  // Millions of rows: counts stop at COMMAND_COUNT_CAP; on SQLite pages are looked for among the
  // newest 10,000 commands first (resource/types.ts `longList`), as the FTS subquery lists every
  // match before the rows are ordered. PostgreSQL's planner already walks the time index and stops
  // for a common term (and the trigram index serves rare ones): a window would only add its scan.
  longList: {
    countCap: COMMAND_COUNT_CAP,
    window: (ctx) => (ctx.req.server.deps.database.dialect === 'sqlite' ? 10_000 : undefined),
  },
  fields: {
    id: f.id(),
    user: f.string(M.field_user, {
      readOnly: true,
      filter: (q, value) => q.where(`${t}.user` as never, 'like', `${value.replace(/[%_\\]/g, '\\$&')}%` as never),
    }),
    asset: f.string(M.field_asset, { readOnly: true, filter: true }),
    account: f.string(M.field_account, { readOnly: true, filter: true }),
    // `search` and `input` go through the input's substring index (commandSearch.ts); user,
    // asset and account have their own filters (a search OR-ed over unindexed columns would
    // scan every row).
    input: f.text(M.field_input, {
      readOnly: true,
      search: true,
      searchWith: inputContains,
      filter: (q, value, ctx) => q.where(inputContains(ctx, value)),
    }),
    output: f.text(M.field_output, { readOnly: true }),
    session: f.string(M.field_session, { readOnly: true, filter: true, column: 'session_id' }),
    risk_level: f.choice(
      M.field_risk_level,
      [
        { value: 0, label: M.risk_0 },
        { value: 4, label: M.risk_4 },
        { value: 5, label: M.risk_5 },
        { value: 6, label: M.risk_6 },
        { value: 7, label: M.risk_7 },
        { value: 8, label: M.risk_8 },
      ],
      { readOnly: true, filter: true, order: true },
    ),
    // Ordered by the ms column; `prepare` turns the value shown into seconds.
    timestamp: f.int(M.field_timestamp, { readOnly: true, order: true, column: 'timestamp_ms' }),
    timestamp_display: f.computed('string', M.field_timestamp_display, (r, ctx) =>
      formatDateTime(new Date(Number(r._ms)), ctx.req.tz),
    ),
    // Not in the contract: the exact moment in ms, so players can tell apart commands of one second.
    timestamp_ms: f.computed('integer', M.field_timestamp, (r) => Number(r._ms)),
    remote_addr: f.string(M.field_remote_addr, { readOnly: true }),
    org_id: f.string(M.field_org_id, { readOnly: true }),
    // Not in the contract: the command was read from the keys typed, the screen not showing them
    // (echo off), instead of from the screen.
    from_input: f.bool(M.field_from_input, { readOnly: true, filter: true }),
  },
  async prepare(rows) {
    for (const r of rows) {
      r._ms = Number(r.timestamp_ms);
      r.timestamp_ms = Math.floor(Number(r.timestamp_ms) / 1000);
    }
  },
  extraFilters: {
    session_id: (q, value) => q.where(`${t}.session_id` as never, '=', value as never),
    date_from: epochFilter('>=', 'date_from'),
    date_to: epochFilter('<=', 'date_to'),
  },
};
