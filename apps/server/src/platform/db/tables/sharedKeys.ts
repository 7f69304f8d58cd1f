/**
 * Key material shared by every instance (migration 1090): the SSH host key (modules/terminal/ssh/hostKey.ts),
 * the secret box's check (platform/crypto/secretKeyCheck.ts), the self-issued licence's public key
 * (modules/xpack/licenceStore.ts).
 */
export interface SharedKeyTables {
  terminal_sharedkey: {
    name: string;
    /** Sealed by the secret box when secret (a public key is kept as it is). */
    value: string;
    date_created: string;
  };
}
