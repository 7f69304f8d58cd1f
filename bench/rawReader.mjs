// The export benchmark's baseline (exportBench.ts): the raw SQL read to its end by a cursor, in a
// worker thread so the bench's event loop (its HTTP client's pooled sockets) never waits on it.
// Plain JavaScript, as apps/server/src/resource/xlsxWorker.mjs, so it loads under any runner.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import pg from 'pg';

async function read({ dialect, sqliteFile, pgUrl, text }) {
  if (dialect === 'sqlite') {
    const db = new SQLite(sqliteFile, { readonly: true });
    try {
      let n = 0;
      for (const _ of db.prepare(text).iterate()) n++;
      return n;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(`DECLARE raw NO SCROLL CURSOR FOR ${text}`);
    let n = 0;
    for (;;) {
      const r = await client.query('FETCH FORWARD 5000 FROM raw');
      n += r.rowCount ?? 0;
      if (!r.rowCount) break;
    }
    await client.query('COMMIT');
    return n;
  } finally {
    await client.end();
  }
}

const t0 = performance.now();
read(workerData).then(
  (rows) => parentPort.postMessage({ rows, ms: performance.now() - t0 }),
  (e) => parentPort.postMessage({ error: String(e?.message ?? e) }),
);
