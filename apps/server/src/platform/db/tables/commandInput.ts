import type { Generated } from 'kysely';
import type { Bool } from '../schema.ts';

/** Where a command was read from (migration 0641). */
export interface CommandInputTables {
  terminal_command: {
    /**
     * Read from the keys the user typed, because the screen did not show them (echo off: `stty
     * -echo`); false when read from the screen as shown, as every other command.
     */
    from_input: Generated<Bool>;
  };
}
