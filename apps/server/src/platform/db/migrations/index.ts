import type { Migration } from 'kysely';
import * as m0001 from './m0001_init.ts';

/** Every migration, in order. Names sort; never rename or edit one that has shipped. */
export const MIGRATIONS: Record<string, Migration> = {
  '0001_init': m0001,
};
