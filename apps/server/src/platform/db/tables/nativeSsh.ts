import type { Generated } from 'kysely';

/** The native SSH server's column on users (migration 0640). */
export interface NativeSshTables {
  users_user: {
    /** The user's SSH public key (`ssh-ed25519 AAAA... comment`), '' when none: key sign-in to the SSH server. */
    public_key: Generated<string>;
  };
}
