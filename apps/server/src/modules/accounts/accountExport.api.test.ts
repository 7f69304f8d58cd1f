import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_ID } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { ACCOUNTS, makeHost } from '../../../test-support/accounts.ts';

/**
 * The accounts export reads its query's cursor batch after batch (resource/export.ts, batches of
 * BATCH rows here): over more than two batches, with ties in every ordered column, it must give
 * exactly the list's rows in the list's order — no row twice, none lost at a batch boundary.
 */
let t: TestApp;
let admin: SessionClient;
const BATCH = 50;
const PER_ASSET = Math.ceil((BATCH * 2 + 10) / 3);

beforeAll(async () => {
  t = await createTestApp({ EXPORT_BATCH_ROWS: String(BATCH) });
  admin = await adminClient(t.app);
  const dates = ['2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'];
  for (let h = 0; h < 3; h++) {
    const host = await makeHost(admin);
    const rows = Array.from({ length: PER_ASSET }, (_, i) => ({
      id: randomUUID(),
      // The same names on every asset and three dates: ties that only the id breaks.
      name: `u${String(i).padStart(4, '0')}`,
      username: `u${i}`,
      secret_type: 'password',
      secret: null,
      passphrase: null,
      spec_info: '{}',
      privileged: false,
      is_active: true,
      asset_id: host.id as string,
      su_from_id: null,
      version: 0,
      source: 'local',
      source_id: null,
      connectivity: '-',
      date_verified: null,
      params: '{}',
      comment: '',
      org_id: DEFAULT_ORG_ID,
      created_by: 'test',
      updated_by: 'test',
      date_created: dates[i % 3]!,
      date_updated: dates[(i + h) % 3]!,
    }));
    for (let i = 0; i < rows.length; i += 200)
      await t.deps.database.db
        .insertInto('accounts_account')
        .values(rows.slice(i, i + 200))
        .execute();
  }
}, 60_000);
afterAll(async () => t?.close());

/** The `id` column of a CSV export, in file order. */
function csvIds(body: string, lang = 'en'): string[] {
  const lines = body
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  const header = lines[0]!.split(',');
  const at = header.findIndex((h) => h.replace(/"/g, '').toLowerCase() === 'id');
  if (at < 0) throw new Error(`no id column (${lang}): ${lines[0]}`);
  return lines.slice(1).map((l) => l.split(',')[at]!.replace(/"/g, ''));
}

describe('the accounts export in batches', () => {
  for (const order of ['', 'name', '-name', '-date_updated', 'date_created,-name']) {
    it(`gives the list's rows in the list's order (order=${order || 'default'})`, async () => {
      const q = order ? `order=${order}` : '';
      const list = await admin.get(`${ACCOUNTS}?${q}`);
      expect(list.statusCode).toBe(200);
      const ids = (list.json() as { id: string }[]).map((a) => a.id);
      expect(ids.length).toBe(PER_ASSET * 3);
      const csv = await admin.get(`${ACCOUNTS}?${q}&format=csv`);
      expect(csv.statusCode).toBe(200);
      expect(csvIds(csv.body)).toEqual(ids);
    });
  }
});
