import type { Generated } from 'kysely';

/** The users' stored language (migration 0910). */
export interface UserLanguageTables {
  users_user: {
    /** `zh`, `en`, `ja` from the user's signed-in requests; '' when never seen (English). */
    lang: Generated<string>;
  };
}
