import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Language } from '@gatehouse/contract';
import type { DB } from '../../platform/db/schema.ts';
import type { TicketTable } from '../../platform/db/tables/tickets.ts';
import { M, type TicketMessageKey } from './ticketMessages.ts';
import type { TicketState, TicketType } from './stateMachine.ts';
import { metaOut } from './ticketMeta.ts';

/** Writing a new ticket with its steps and assignees, and reading tickets in the contract's shape. */
export interface NewTicket {
  type: TicketType;
  title: string;
  orgId: string;
  applicantId: string;
  comment?: string;
  meta: Record<string, unknown>;
  /** The meta once the ticket's id is known (e.g. a name made of it). */
  metaOf?: (id: string) => Record<string, unknown>;
  /** Assignee user ids per level (1 or 2 levels). */
  levels: string[][];
  createdBy: string;
}

export type TicketRow = TicketTable;

async function displays(db: Kysely<DB>, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('users_user').select(['id', 'name', 'username']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, `${r.name}(${r.username})`]));
}

/** `YYYYMMDD` and a 4-digit sequence of the day; retried on a clash with a concurrent ticket. */
async function nextSerial(db: Kysely<DB>, now: string): Promise<string> {
  const day = now.slice(0, 10).replaceAll('-', '');
  const row = await db
    .selectFrom('tickets_ticket')
    .select((eb) => eb.fn.max('serial_num').as('m'))
    .where('serial_num', 'like', `${day}%`)
    .executeTakeFirst();
  const last = row?.m ? Number(String(row.m).slice(8)) : 0;
  return `${day}${String(last + 1).padStart(4, '0')}`;
}

export async function createTicket(db: Kysely<DB>, t: NewTicket): Promise<TicketRow> {
  const names = await displays(db, [t.applicantId, ...t.levels.flat()]);
  for (let attempt = 0; ; attempt++) {
    const now = new Date().toISOString();
    const id = randomUUID();
    const row: TicketRow = {
      id,
      serial_num: await nextSerial(db, now),
      title: t.title,
      type: t.type,
      state: 'pending',
      status: 'open',
      approval_level: t.levels.length,
      approval_step: 1,
      applicant_id: t.applicantId,
      applicant_display: names.get(t.applicantId) ?? '',
      comment: t.comment ?? '',
      meta: JSON.stringify(t.metaOf ? t.metaOf(id) : t.meta),
      rel_snapshot: '{}',
      created_by: t.createdBy,
      updated_by: t.createdBy,
      date_created: now,
      date_updated: now,
      org_id: t.orgId,
    };
    try {
      await db.transaction().execute(async (tx) => {
        await tx.insertInto('tickets_ticket').values(row).execute();
        for (const [i, users] of t.levels.entries()) {
          await tx
            .insertInto('tickets_ticketstep')
            .values({
              id: randomUUID(),
              ticket_id: row.id,
              level: i + 1,
              state: 'pending',
              status: i === 0 ? 'active' : 'pending',
              processor_id: null,
              processor_display: '',
              approval_date: null,
            })
            .execute();
          if (users.length)
            await tx
              .insertInto('tickets_ticketassignee')
              .values(
                users.map((u) => ({
                  id: randomUUID(),
                  ticket_id: row.id,
                  level: i + 1,
                  user_id: u,
                  user_display: names.get(u) ?? '',
                })),
              )
              .execute();
        }
      });
      return row;
    } catch (e) {
      if (attempt >= 4 || !/unique|duplicate/i.test(String(e))) throw e;
    }
  }
}

export async function assigneesAt(db: Kysely<DB>, ticketId: string, level: number): Promise<string[]> {
  const rows = await db
    .selectFrom('tickets_ticketassignee')
    .select('user_id')
    .where('ticket_id', '=', ticketId)
    .where('level', '=', level)
    .execute();
  return rows.map((r) => r.user_id);
}

const choice = (lang: Language, prefix: string, value: string) => ({
  value,
  label: (M[`${prefix}_${value}` as TicketMessageKey] ?? { [lang]: value })[lang] ?? value,
});

/** Tickets in the contract's shape (one query per related table for the whole page). */
export async function serializeTickets(
  db: Kysely<DB>,
  rows: TicketRow[],
  lang: Language,
): Promise<Record<string, unknown>[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const steps = await db
    .selectFrom('tickets_ticketstep')
    .selectAll()
    .where('ticket_id', 'in', ids)
    .orderBy('level')
    .execute();
  const assignees = await db.selectFrom('tickets_ticketassignee').selectAll().where('ticket_id', 'in', ids).execute();
  const orgIds = [...new Set(rows.map((r) => r.org_id))];
  const orgs = new Map(
    (await db.selectFrom('orgs_organization').select(['id', 'name']).where('id', 'in', orgIds).execute()).map((o) => [
      o.id,
      o.name,
    ]),
  );
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    serial_num: r.serial_num,
    type: choice(lang, 'type', r.type),
    state: choice(lang, 'state', r.state),
    status: choice(lang, 'status', r.status),
    approval_step: Number(r.approval_step),
    applicant: { id: r.applicant_id, name: r.applicant_display },
    applicant_display: r.applicant_display,
    process_map: steps
      .filter((s) => s.ticket_id === r.id)
      .map((s) => {
        const mine = assignees.filter((a) => a.ticket_id === r.id && a.level === s.level);
        return {
          approval_level: Number(s.level),
          state: s.state as TicketState,
          status: s.status,
          assignees: mine.map((a) => a.user_id),
          assignees_display: mine.map((a) => a.user_display),
          processor: s.processor_id,
          processor_display: s.processor_display,
          approval_date: s.approval_date,
        };
      }),
    comment: r.comment,
    org_id: r.org_id,
    org_name: orgs.get(r.org_id) ?? '',
    rel_snapshot: JSON.parse(r.rel_snapshot) as unknown,
    date_created: r.date_created,
    date_updated: r.date_updated,
    created_by: r.created_by,
    updated_by: r.updated_by,
    ...metaOut(r.type as TicketType, JSON.parse(r.meta) as Record<string, unknown>, lang),
  }));
}
