import type { Kysely } from 'kysely';

/**
 * Tickets (modules/tickets): a ticket, its approval steps (one per level, the contract's
 * `process_map`), each step's assignees (a row per user, so "tickets assigned to me" is an index
 * range), comments, and the approval flows per org and type with their rules per level. The
 * global org gets the default flows (one level, super administrators) that every org falls back to.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
const ROOT = '00000000-0000-0000-0000-000000000000';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tickets_ticket')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('serial_num', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('title', 'varchar(256)', (c) => c.notNull())
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('approval_level', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('approval_step', 'integer', (c) => c.notNull().defaultTo(1))
    // No foreign key: a ticket is a record that outlives its applicant (the display stays).
    .addColumn('applicant_id', 'varchar(36)')
    .addColumn('applicant_display', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    // The type's own fields (apply_*), JSON.
    .addColumn('meta', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('rel_snapshot', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull().references('orgs_organization.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('tickets_ticket_applicant_idx').on('tickets_ticket').columns(['applicant_id']).execute();
  await db.schema
    .createTable('tickets_ticketstep')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('ticket_id', 'varchar(36)', (c) => c.notNull().references('tickets_ticket.id').onDelete('cascade'))
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('processor_id', 'varchar(36)')
    .addColumn('processor_display', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('approval_date', 'varchar(32)')
    .addUniqueConstraint('tickets_ticketstep_level_uniq', ['ticket_id', 'level'])
    .execute();
  await db.schema
    .createTable('tickets_ticketassignee')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('ticket_id', 'varchar(36)', (c) => c.notNull().references('tickets_ticket.id').onDelete('cascade'))
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users_user.id').onDelete('cascade'))
    .addColumn('user_display', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addUniqueConstraint('tickets_ticketassignee_uniq', ['ticket_id', 'level', 'user_id'])
    .execute();
  await db.schema
    .createIndex('tickets_ticketassignee_user_idx')
    .on('tickets_ticketassignee')
    .columns(['user_id', 'ticket_id', 'level'])
    .execute();
  await db.schema
    .createTable('tickets_comment')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('ticket_id', 'varchar(36)', (c) => c.notNull().references('tickets_ticket.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(36)')
    .addColumn('user_display', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tickets_comment_ticket_idx').on('tickets_comment').columns(['ticket_id']).execute();
  await db.schema
    .createTable('tickets_ticketflow')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('approval_level', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    // The global org (no row in orgs_organization) holds the default flows: no foreign key.
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull())
    .addUniqueConstraint('tickets_ticketflow_org_type_uniq', ['org_id', 'type'])
    .execute();
  await db.schema
    .createTable('tickets_approvalrule')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('flow_id', 'varchar(36)', (c) => c.notNull().references('tickets_ticketflow.id').onDelete('cascade'))
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('strategy', 'varchar(32)', (c) => c.notNull())
    // JSON list of user ids (custom_user).
    .addColumn('assignees', 'text', (c) => c.notNull().defaultTo('[]'))
    .addUniqueConstraint('tickets_approvalrule_level_uniq', ['flow_id', 'level'])
    .execute();
  const now = new Date().toISOString();
  for (const [n, type] of ['general', 'apply_asset'].entries()) {
    const id = `00000000-0000-0000-0000-0000000008${String(n + 1).padStart(2, '0')}`;
    await db
      .insertInto('tickets_ticketflow')
      .values({ id, type, approval_level: 1, created_by: 'System', date_created: now, date_updated: now, org_id: ROOT })
      .execute();
    await db
      .insertInto('tickets_approvalrule')
      .values({
        id: `${id.slice(0, -4)}81${String(n + 1).padStart(2, '0')}`,
        flow_id: id,
        level: 1,
        strategy: 'super_admin',
        assignees: '[]',
      })
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'tickets_approvalrule',
    'tickets_ticketflow',
    'tickets_comment',
    'tickets_ticketassignee',
    'tickets_ticketstep',
    'tickets_ticket',
  ])
    await db.schema.dropTable(t).execute();
}
