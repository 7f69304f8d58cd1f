import type { Kysely } from 'kysely';

/**
 * `terminal_command.from_input`: the gateway read the command from the keys typed, the shell not
 * showing them (echo off), instead of from the screen.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('terminal_command')
    .addColumn('from_input', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('terminal_command').dropColumn('from_input').execute();
}
