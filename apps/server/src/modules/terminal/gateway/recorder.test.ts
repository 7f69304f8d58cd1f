import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { closeStream, Recorder } from './recorder.ts';

/** The asciicast stream: written while running, compressed at the end, repaired after a crash. */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-cast-'));
  dirs.push(d);
  return d;
}

describe('Recorder', () => {
  it('writes an asciicast v2 file that is compressed at the end', async () => {
    const file = path.join(tmp(), 'replays', '2026-01-01', 's.cast');
    const r = new Recorder(file, { width: 80, height: 24, timestamp: 1_700_000_000 });
    r.output('hello\r\n');
    r.resize(100, 30);
    r.output('é');
    const gz = await r.finish();
    expect(fs.existsSync(file)).toBe(false);
    const lines = gunzipSync(fs.readFileSync(gz)).toString('utf8').trim().split('\n');
    expect(JSON.parse(lines[0]!)).toEqual({ version: 2, width: 80, height: 24, timestamp: 1_700_000_000 });
    expect(lines.slice(1).map((l) => (JSON.parse(l) as unknown[]).slice(1))).toEqual([
      ['o', 'hello\r\n'],
      ['r', '100x30'],
      ['o', 'é'],
    ]);
  });

  it('drops a last line cut by a crash when it closes a stream left behind', async () => {
    const file = path.join(tmp(), 'x.cast');
    fs.writeFileSync(file, '{"version":2,"width":80,"height":24,"timestamp":1}\n[0.1,"o","ok"]\n[0.2,"o","cu');
    const gz = await closeStream(file);
    const lines = gunzipSync(fs.readFileSync(gz)).toString('utf8').trim().split('\n');
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([
      { version: 2, width: 80, height: 24, timestamp: 1 },
      [0.1, 'o', 'ok'],
    ]);
  });
});
