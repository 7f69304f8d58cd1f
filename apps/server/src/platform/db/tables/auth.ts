import type { Generated } from 'kysely';
import type { Bool } from '../schema.ts';

/** Authentication and notifications (migration 0050). */

/** Columns migration 0050 adds to `users_user`; joined onto the core user table in `DB`. */
export interface UserAuthColumns {
  /** The TOTP seed sealed with the secret box (`gh1$...`), null when no OTP is bound. */
  otp_secret_key: string | null;
}

export interface PasswordHistoryTable {
  id: string;
  user_id: string;
  /** A former password hash. */
  password: string;
  date_created: string;
}

export interface MessageContentTable {
  id: string;
  subject: string;
  /** HTML; sanitised on output. Encrypted by the secret box when `sealed`. */
  message: string;
  sender_id: string | null;
  is_broadcast: Bool;
  sealed: Generated<Bool>;
  date_created: string;
  date_updated: string;
}

export interface SiteMessageTable {
  id: string;
  content_id: string;
  user_id: string;
  has_read: Bool;
  read_at: string | null;
  date_created: string;
  date_updated: string;
}

export interface AuthTables {
  users_user: UserAuthColumns;
  users_userpasswordhistory: PasswordHistoryTable;
  notifications_messagecontent: MessageContentTable;
  notifications_sitemessage: SiteMessageTable;
}
