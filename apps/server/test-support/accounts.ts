import { createHash } from 'node:crypto';
import { SESSION_COOKIE } from '@gatehouse/contract';
import { ACCOUNTS, linuxHost, type ApiPost } from './sshAsset.ts';
import { ADMIN_PASSWORD, type SessionClient, type TestApp } from './testApp.ts';

/** Helpers of the accounts API tests. */

export { ACCOUNTS };
export const SECRETS = '/api/v1/accounts/account-secrets/';
export const TEMPLATES = '/api/v1/accounts/account-templates/';

/** The client's POST as the shared fixtures make API calls (sshAsset.ts): the JSON answer, an error on a status above 299. */
export function apiPost(c: SessionClient): ApiPost {
  return async (url, body) => {
    const res = await c.post(url, body);
    if (res.statusCode >= 300) throw new Error(`POST ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
}

/** A Linux host (su allowed) in the admin's current org, reachable on `sshPort` if given. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answer
export function makeHost(admin: SessionClient, sshPort = 22, extra: Record<string, unknown> = {}): Promise<any> {
  return linuxHost(apiPost(admin), sshPort, extra);
}

/** Re-verifies the admin with the password (the admin has no MFA). */
export async function confirmAdmin(admin: SessionClient): Promise<void> {
  const res = await admin.post('/api/v1/authentication/confirm/', {
    confirm_type: 'password',
    secret_key: ADMIN_PASSWORD,
  });
  if (res.statusCode !== 200) throw new Error(`confirm: ${res.body}`);
}

/** Moves the session's re-verification `seconds` into the past. */
export async function ageConfirm(t: TestApp, c: SessionClient, seconds: number): Promise<void> {
  const id = createHash('sha256').update(c.jar.values.get(SESSION_COOKIE)!).digest('hex');
  const db = t.deps.database.db;
  const row = await db.selectFrom('auth_session').select('data').where('id', '=', id).executeTakeFirstOrThrow();
  const data = JSON.parse(row.data) as Record<string, unknown>;
  data.confirm_time = Number(data.confirm_time) - seconds;
  await db
    .updateTable('auth_session')
    .set({ data: JSON.stringify(data) })
    .where('id', '=', id)
    .execute();
}

/** Every line the app's logger writes from now on (pino's destination stream, patched). */
export function captureLogs(t: TestApp): { lines: string[]; stop(): void } {
  const log = t.app.log as unknown as Record<symbol, { write(s: string): unknown }>;
  let sym: symbol | undefined;
  for (let o: object | null = log; o && !sym; o = Object.getPrototypeOf(o) as object | null)
    sym = Object.getOwnPropertySymbols(o).find((s) => s.description === 'pino.stream');
  if (!sym) throw new Error('no pino stream on the app logger');
  const stream = log[sym]!;
  const original = stream.write;
  const lines: string[] = [];
  stream.write = (s: string) => {
    lines.push(s);
    return true;
  };
  return {
    lines,
    stop() {
      stream.write = original;
    },
  };
}
