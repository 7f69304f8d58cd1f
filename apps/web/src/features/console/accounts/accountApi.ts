import { http } from '../../../lib/http.ts';
import { encryptFields } from '../../../resource/secrets.ts';
import type { ResourceObject } from '../../../resource/types.ts';

/** Calls of the account pages; secrets travel encrypted. */
export const ACCOUNTS = '/api/v1/accounts/accounts/';
export const ACCOUNT_SECRETS = '/api/v1/accounts/account-secrets/';
export const TEMPLATES = '/api/v1/accounts/account-templates/';
export const TEMPLATE_SECRETS = '/api/v1/accounts/account-template-secrets/';
export const VIRTUAL = '/api/v1/accounts/virtual-accounts/';

export const SECRET_FIELDS = ['secret', 'passphrase'] as const;

export interface BulkResult {
  asset: string;
  state: 'created' | 'updated' | 'skipped' | 'error';
  error?: string;
  changed?: boolean;
}

export interface SecretHistory {
  id: string;
  secret: string | null;
  passphrase: string | null;
  secret_type: { value: string; label: string };
  version: number;
  history_date: string;
  history_user: string;
}

export const withEncryptedSecret = (body: Record<string, unknown>) => encryptFields(body, SECRET_FIELDS);

export async function createAccount(body: Record<string, unknown>): Promise<ResourceObject> {
  return http.post<ResourceObject>(ACCOUNTS, await withEncryptedSecret(body));
}

export async function createAccountsBulk(body: Record<string, unknown>): Promise<BulkResult[]> {
  return http.post<BulkResult[]>(`${ACCOUNTS}bulk/`, await withEncryptedSecret(body));
}

export async function updateAccount(id: string, body: Record<string, unknown>): Promise<ResourceObject> {
  return http.patch<ResourceObject>(`${ACCOUNTS}${id}/`, await withEncryptedSecret(body));
}

/** The account with its secret: the server asks for re-verification first (the http client opens it). */
export const readSecret = (id: string, template = false) =>
  http.get<ResourceObject>(`${template ? TEMPLATE_SECRETS : ACCOUNT_SECRETS}${id}/`);

export const readHistory = (id: string) => http.get<SecretHistory[]>(`${ACCOUNT_SECRETS}${id}/histories/`);

export const clearSecrets = (ids: string[]) => http.patch(`${ACCOUNTS}clear-secret/`, { account_ids: ids });

export const startTest = (ids: string[]) =>
  http.post<{ task: string }>(`${ACCOUNTS}tasks/`, { action: 'verify', accounts: ids });
