import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../test-support/testApp.ts';
import * as m1740 from '../platform/db/migrations/m1740_list_search.ts';
import { anyContains } from './textSearch.ts';
import type { ResourceCtx } from './types.ts';

/**
 * List search through the substring indexes of migration 1740 answers exactly what the LIKE scan
 * it replaces answers (the scan is run here as raw SQL over the same rows): short terms, LIKE
 * wildcards and quotes typed by the user, mixed case, non-ASCII, several terms (each must match one
 * field: no match across two fields), rows changed and deleted after they were indexed, and a term
 * so common that the index is bypassed. The index serves a rare term (query plans).
 */
let t: TestApp;
let admin: SessionClient;
const ROOT = { 'x-jms-org': ROOT_ORG_ID };
const LOGS = '/api/v1/audits/login-logs/';
const LOG_COLUMNS = ['username', 'ip', 'city'];
/** Index matches from which a term is common (the default, 10,000, would make a slow test). */
const COMMON_MATCHES = 300;
const CITIES = [
  'Paris',
  'ÉCOLE',
  'école',
  'São Paulo',
  '中文城市',
  'say "hi"',
  '50% off',
  'x_y',
  'a\\b',
  'NEAR AND OR',
];

function logRow(i: number, over: Record<string, string> = {}) {
  return {
    id: randomUUID(),
    username: `user_${i}`,
    type: 'W',
    ip: `10.${i % 7}.${i % 256}.${i % 100}`,
    city: CITIES[i % CITIES.length]!,
    user_agent: '',
    mfa: 0,
    reason: '',
    backend: '',
    status: true,
    datetime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    ...over,
  };
}

/** The ids the LIKE scan finds: every term in one of the columns (`containsCi`'s pattern, unindexed). */
async function likeIds(table: string, columns: string[], search: string): Promise<string[]> {
  const op = t.deps.database.dialect === 'postgres' ? sql.raw('ILIKE') : sql.raw('LIKE');
  const terms = search.split(/[\s,]+/).filter(Boolean);
  const where = terms.map((term) => {
    const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return sql`(${sql.join(
      columns.map((c) => sql`${sql.ref(c)} ${op} ${pattern} ESCAPE '\\'`),
      sql` OR `,
    )})`;
  });
  const r = await sql<{
    id: string;
  }>`SELECT id FROM ${sql.table(table)} WHERE ${sql.join(where, sql` AND `)}`.execute(t.deps.database.db);
  return r.rows.map((x) => x.id).sort();
}

async function listIds(url: string, search: string, headers: Record<string, string> = {}): Promise<string[]> {
  const res = await admin.get(`${url}?search=${encodeURIComponent(search)}`, headers);
  expect(res.statusCode, search).toBe(200);
  return (res.json() as { id: string }[]).map((r) => r.id).sort();
}

async function expectLikeResults(terms: string[]): Promise<void> {
  for (const term of terms)
    expect(await listIds(LOGS, term, ROOT), term).toEqual(await likeIds('audits_userloginlog', LOG_COLUMNS, term));
}

/** What the list's search runs for one term, with the list's context reduced to what it reads. */
function searchCtx(): ResourceCtx {
  return { db: t.deps.database.db, req: { server: { deps: t.deps } } } as unknown as ResourceCtx;
}

beforeAll(async () => {
  t = await createTestApp({ SEARCH_COMMON_MATCHES: String(COMMON_MATCHES) });
  admin = await adminClient(t.app);
  const rows = Array.from({ length: COMMON_MATCHES + 100 }, (_, i) => logRow(i));
  rows.push(logRow(0, { username: 'span_a', ip: '10.9.9.9', city: 'Lyon' }));
  for (let i = 0; i < rows.length; i += 300)
    await t.deps.database.db
      .insertInto('audits_userloginlog')
      .values(rows.slice(i, i + 300))
      .execute();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('indexed list search', () => {
  it('answers what LIKE answers, for every kind of term', async () => {
    await expectLikeResults([
      'u',
      '中',
      'r_',
      '_',
      '%',
      '%%%',
      '50%',
      '0% o',
      'x_y',
      'r_12',
      'USER_123',
      'uSeR_20',
      'paris',
      'PAR',
      'école',
      'ÉCOLE',
      'École',
      'são',
      'SÃO',
      '中文城',
      '文城市',
      '"hi"',
      '"h',
      'a\\b',
      '\\',
      'NEAR',
      'AND',
      '*',
      'user_1 paris',
      'user_12,10.5',
      'nothing-like-this',
      'span_a',
    ]);
  });

  it('matches each term within one field, never across two', async () => {
    // "span_a" + "10.9.9.9": the end of the username and the start of the ip are not one substring.
    expect(await listIds(LOGS, 'a10.9', ROOT)).toEqual([]);
    expect(await listIds(LOGS, 'span_a10', ROOT)).toEqual([]);
    expect(await listIds(LOGS, 'span_a 10.9.9', ROOT)).toHaveLength(1);
  });

  it('bypasses the index for a common term with the same rows', async () => {
    const all = await likeIds('audits_userloginlog', LOG_COLUMNS, 'user_');
    expect(all.length).toBeGreaterThan(COMMON_MATCHES);
    expect(await listIds(LOGS, 'user_', ROOT)).toEqual(all);
    expect(await listIds(LOGS, 'USER_1', ROOT)).toEqual(await likeIds('audits_userloginlog', LOG_COLUMNS, 'USER_1'));
  });

  it('finds rows as they are changed and deleted after indexing', async () => {
    const db = t.deps.database.db;
    const row = logRow(7, { username: 'renamed_zeta', city: 'Kraków' });
    await db.insertInto('audits_userloginlog').values(row).execute();
    expect(await listIds(LOGS, 'zeta', ROOT)).toEqual([row.id]);
    await db.updateTable('audits_userloginlog').set({ username: 'renamed_omega' }).where('id', '=', row.id).execute();
    expect(await listIds(LOGS, 'zeta', ROOT)).toEqual([]);
    expect(await listIds(LOGS, 'OMEGA', ROOT)).toEqual([row.id]);
    expect(await listIds(LOGS, 'krakó', ROOT)).toEqual([row.id]);
    await db.deleteFrom('audits_userloginlog').where('id', '=', row.id).execute();
    expect(await listIds(LOGS, 'omega', ROOT)).toEqual([]);
    await expectLikeResults(['user_7', 'ków']);
  });

  it('keeps users found by what they are now, through the API', async () => {
    const url = '/api/v1/users/users/';
    const created = await admin.post(url, { username: 'ixwalrus', name: 'Ixia Walrus', email: 'ixw@example.com' });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    expect(await listIds(url, 'walrus')).toEqual([id]);
    expect((await admin.patch(`${url}${id}/`, { name: 'Ixia Narwhal' })).statusCode).toBe(200);
    expect(await listIds(url, 'NARWHAL')).toEqual([id]);
    expect(await listIds(url, 'xia walrus')).toEqual([id]); // still in the username
    expect(await listIds(url, 'Walrus ix_')).toEqual([]);
    expect((await admin.request({ method: 'DELETE', url: `${url}${id}/` })).statusCode).toBe(204);
    expect(await listIds(url, 'narwhal')).toEqual([]);
  });

  it('searches accounts and their assets through both indexes', async () => {
    const db = t.deps.database.db;
    const platform = (await db
      .selectFrom('assets_platform')
      .select('id')
      .where('name', '=', 'Linux')
      .executeTakeFirst())!;
    const asset = (
      await admin.post('/api/v1/assets/hosts/', {
        name: 'quokka-host',
        address: '192.0.2.77',
        platform: platform.id,
      })
    ).json();
    expect(asset.id).toBeTruthy();
    const account = await admin.post('/api/v1/accounts/accounts/', {
      name: 'svc-pangolin',
      username: 'pangolin',
      asset: asset.id,
      secret_type: 'password',
    });
    expect(account.statusCode).toBe(201);
    const url = '/api/v1/accounts/accounts/';
    for (const term of ['QUOKKA', '192.0.2.7', 'pangolin', 'golin quokka'])
      expect(await listIds(url, term), term).toEqual([account.json().id]);
    expect(await listIds(url, 'pangolin192')).toEqual([]);
  });

  it('indexes the rows that were there before the migration', async () => {
    const db = t.deps.database.db;
    await m1740.down(db);
    const row = logRow(3, { username: 'before_index_okapi' });
    await db.insertInto('audits_userloginlog').values(row).execute();
    await m1740.up(db);
    expect(await listIds(LOGS, 'OKAPI', ROOT)).toEqual([row.id]);
    await expectLikeResults(['user_3', 'user_', 'ndex_o']);
  });

  it('serves a rare term from the index', async () => {
    const db = t.deps.database.db;
    const plan = async (term: string) => {
      const query = db
        .selectFrom('audits_userloginlog')
        .select('id')
        .where(await anyContains(searchCtx(), 'audits_userloginlog', LOG_COLUMNS, term))
        .compile();
      if (t.deps.database.dialect === 'sqlite')
        return JSON.stringify((await db.executeQuery({ ...query, sql: `EXPLAIN QUERY PLAN ${query.sql}` })).rows);
      return db.transaction().execute(async (trx) => {
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        const r = await trx.executeQuery({ ...query, sql: `EXPLAIN ${query.sql}` });
        return JSON.stringify(r.rows);
      });
    };
    if (t.deps.database.dialect === 'sqlite') {
      expect(await plan('user_1234')).toContain('VIRTUAL TABLE INDEX');
      expect(await plan('user_')).not.toContain('VIRTUAL TABLE');
      expect(await plan('us')).not.toContain('VIRTUAL TABLE');
    } else {
      expect(await plan('user_1234')).toContain('audits_userloginlog_username_trgm');
    }
  });
});
