import type { Bool } from '../schema.ts';

/** The profile's credentials, preferences and connection tokens (migration 0450). */

export interface AccessKeyTable {
  id: string;
  user_id: string;
  /** The signing secret sealed with the secret box. */
  secret: string;
  is_active: Bool;
  date_last_used: string | null;
  date_created: string;
}

export interface PrivateTokenTable {
  id: string;
  user_id: string;
  /** SHA-256 (hex) of the token: the token itself is never stored. */
  key_hash: string;
  date_created: string;
}

export interface TempTokenTable {
  id: string;
  user_id: string;
  username: string;
  /** The 36-character secret sealed with the secret box. */
  secret: string;
  verified: Bool;
  date_created: string;
  date_updated: string;
  date_verified: string | null;
  date_expired: string;
}

export interface PasskeyTable {
  id: string;
  user_id: string;
  name: string;
  is_active: Bool;
  platform: string;
  /** base64url credential id. */
  credential_id: string;
  /** base64url COSE public key. */
  public_key: string;
  sign_count: number | string;
  /** JSON list of authenticator transports. */
  transports: string;
  created_by: string;
  date_last_used: string | null;
  date_created: string;
}

export interface PreferenceTable {
  id: string;
  user_id: string;
  category: string;
  name: string;
  /** JSON text, sealed with the secret box when `encrypted`. */
  value: string;
  encrypted: Bool;
  date_created: string;
  date_updated: string;
}

export interface ConnectionTokenTable {
  id: string;
  value: string;
  user_id: string;
  user_display: string;
  asset_id: string | null;
  asset_display: string;
  account: string;
  input_username: string;
  /** Sealed with the secret box ('' when none). */
  input_secret: string;
  protocol: string;
  connect_method: string;
  /** JSON text. */
  connect_options: string;
  is_reusable: Bool;
  is_active: Bool;
  from_ticket_id: string | null;
  org_id: string;
  created_by: string;
  updated_by: string;
  date_expired: string;
  date_created: string;
  date_updated: string;
}

export interface ProfileTables {
  authentication_accesskey: AccessKeyTable;
  authentication_privatetoken: PrivateTokenTable;
  authentication_temptoken: TempTokenTable;
  authentication_passkey: PasskeyTable;
  users_preference: PreferenceTable;
  authentication_connectiontoken: ConnectionTokenTable;
}
