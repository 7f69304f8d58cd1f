import http from 'node:http';
import { once } from 'node:events';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_ID } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../test-support/testApp.ts';
import type { CursorReader } from '../platform/db/cursor.ts';

/**
 * Exports read one cursor in batches (resource/export.ts, EXPORT_BATCH_ROWS = 7 here): a long
 * export gives every row once, in the list's order, across batch boundaries that fall inside runs
 * of equal sort keys; and a client that goes away mid-export ends the server's reading at once.
 * The commands list is the case that once broke: its `prepare` rewrites the ordered column.
 */
const BATCH = 7;
const COMMANDS = 150;
const COMMANDS_URL = '/api/v1/terminal/commands/';
const START = Date.parse('2026-03-01T00:00:00Z');
let t: TestApp;
let admin: SessionClient;

beforeAll(async () => {
  t = await createTestApp({ EXPORT_BATCH_ROWS: String(BATCH) });
  admin = await adminClient(t.app);
  // Ten commands in each millisecond: every batch boundary falls among equal timestamps.
  const rows = Array.from({ length: COMMANDS }, (_, i) => ({
    id: `cmd-${String((i * 37) % COMMANDS).padStart(3, '0')}`,
    session_id: 's1',
    user: 'ann',
    asset: 'web-1',
    account: 'root',
    input: `echo ${i}`,
    output: '',
    risk_level: 0,
    timestamp_ms: START + Math.floor(i / 10) * 1000,
    remote_addr: '10.0.0.1',
    cmd_filter_acl_id: null,
    org_id: DEFAULT_ORG_ID,
  }));
  await t.deps.database.db.insertInto('terminal_command').values(rows).execute();
}, 60_000);
afterAll(async () => t?.close());

/** The rows of a CSV export (BOM and header dropped), cells split on commas (these cells have none). */
function csvRows(body: string): { header: string[]; rows: string[][] } {
  const [head, ...lines] = body
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  return { header: head!.split(','), rows: lines.map((l) => l.split(',')) };
}

describe('an export over many batches', () => {
  it("gives every command once, in the list's order, with ties across batch boundaries", async () => {
    const list = await admin.get(COMMANDS_URL);
    expect(list.statusCode).toBe(200);
    const listed = (list.json() as { id: string; timestamp: number }[]).map((c) => c.id);
    // Newest first, then id: what the list's order says.
    const expected = Array.from({ length: COMMANDS }, (_, i) => ({
      id: `cmd-${String((i * 37) % COMMANDS).padStart(3, '0')}`,
      ms: START + Math.floor(i / 10) * 1000,
    }))
      .sort((a, b) => b.ms - a.ms || (a.id < b.id ? -1 : 1))
      .map((c) => c.id);
    expect(listed).toEqual(expected);

    for (const order of ['', '&order=timestamp', '&order=-risk_level']) {
      const res = await admin.get(`${COMMANDS_URL}?format=csv${order}`);
      expect(res.statusCode).toBe(200);
      const { header, rows } = csvRows(res.body);
      const ids = rows.map((r) => r[header.indexOf('ID')]!);
      const again = await admin.get(`${COMMANDS_URL}?${order.slice(1)}`);
      expect(ids).toEqual((again.json() as { id: string }[]).map((c) => c.id));
      expect(new Set(ids).size).toBe(COMMANDS);
    }
    // The timestamp column is in seconds, as the list shows it.
    const { header, rows } = csvRows((await admin.get(`${COMMANDS_URL}?format=csv`)).body);
    const seconds = rows.map((r) => Number(r[header.findIndex((h) => h.toLowerCase() === 'timestamp')]));
    expect(seconds[0]).toBe(Math.floor((START + 14_000) / 1000));
    expect(seconds.at(-1)).toBe(START / 1000);
  });
});

describe('a client that goes away mid-export', () => {
  it("stops the server's reading: the cursor is released and no further batch is read", async () => {
    const database = t.deps.database;
    const real = database.cursor;
    let read = 0;
    let released = false;
    let reachedSecond!: () => void;
    const atSecond = new Promise<void>((r) => (reachedSecond = r));
    let openGate!: () => void;
    const gate = new Promise<void>((r) => (openGate = r));
    // The real cursor, counted; it holds the second batch until the client is gone.
    const counted: CursorReader = async function* (query, size) {
      try {
        for await (const batch of real(query, size)) {
          read++;
          if (read === 2) {
            reachedSecond();
            await gate;
          }
          yield batch;
        }
      } finally {
        released = true;
      }
    };
    database.cursor = counted;
    const serverSockets: Socket[] = [];
    t.app.server.on('connection', (s: Socket) => serverSockets.push(s));
    try {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = t.app.server.address() as { port: number };
      const req = http.get({
        host: '127.0.0.1',
        port,
        path: `${COMMANDS_URL}?format=csv`,
        headers: { cookie: admin.jar.header() },
      });
      const [res] = (await once(req, 'response')) as [http.IncomingMessage];
      expect(res.statusCode).toBe(200);
      await once(res, 'data');
      await atSecond;
      // The client hangs up while the server holds its second batch.
      req.destroy();
      // Closed, not errored: `once(s, 'close')` would reject on the ECONNRESET the server's socket
      // reads when the client's unread bytes made its close a reset (CI, a busy machine).
      await Promise.all(
        serverSockets.filter((s) => !s.destroyed).map((s) => new Promise((closed) => s.once('close', closed))),
      );
      openGate();
      await expect.poll(() => released, { timeout: 30_000 }).toBe(true);
      // Of the 22 batches, the second was the last read.
      expect(read).toBe(2);
      expect(Math.ceil(COMMANDS / BATCH)).toBeGreaterThan(2);
    } finally {
      database.cursor = real;
    }
    // The server goes on serving whole exports.
    const res = await admin.get(`${COMMANDS_URL}?format=csv`);
    expect(csvRows(res.body).rows).toHaveLength(COMMANDS);
  });
});
