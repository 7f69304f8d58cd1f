import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { cachingStatements } from './sqliteStatements.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function open(size?: number) {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-stmts-'));
  const sqlite = new SQLite(path.join(dir, 'db.sqlite3'));
  sqlite.exec('CREATE TABLE t (n INTEGER)');
  for (let n = 1; n <= 3; n++) sqlite.prepare('INSERT INTO t VALUES (?)').run(n);
  return cachingStatements(sqlite, size);
}

describe('cached SQLite statements', () => {
  it('gives the same statement for the same SQL, so SQLite compiles it once', () => {
    const db = open();
    const a = db.prepare('SELECT n FROM t WHERE n = ?');
    expect(db.prepare('SELECT n FROM t WHERE n = ?')).toBe(a);
    expect(db.prepare('SELECT n FROM t WHERE n > ?')).not.toBe(a);
    db.close();
  });

  it('runs a query again while the same query is still being iterated (a statement is busy then)', () => {
    const db = open();
    const sql = 'SELECT n FROM t ORDER BY n';
    const seen: number[][] = [];
    for (const row of db.prepare(sql).iterate([]) as Iterable<{ n: number }>)
      seen.push([row.n, ...(db.prepare(sql).all([]) as { n: number }[]).map((r) => r.n)]);
    expect(seen).toEqual([
      [1, 1, 2, 3],
      [2, 1, 2, 3],
      [3, 1, 2, 3],
    ]);
    db.close();
  });

  it('keeps at most its size, dropping the least recently used', () => {
    const db = open(2);
    const a = db.prepare('SELECT 1');
    const b = db.prepare('SELECT 2');
    expect(db.prepare('SELECT 1')).toBe(a); // 1 is now the most recent
    db.prepare('SELECT 3'); // drops 2
    expect(db.prepare('SELECT 1')).toBe(a);
    expect(db.prepare('SELECT 2')).not.toBe(b);
    db.close();
  });
});
