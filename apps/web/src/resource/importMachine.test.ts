import { describe, expect, it } from 'vitest';
import {
  buttonOf,
  counts,
  createImport,
  filterRows,
  flattenRowError,
  press,
  progressPercent,
  recordResult,
  rowBody,
  nextRow,
  STATUS,
  type ImportState,
} from './importMachine.ts';
import { runImport } from './importRunner.ts';

const rows = [{ username: 'a' }, { username: 'b' }, { username: 'c' }];
const titles: [string, string][] = [
  ['*Email', 'email'],
  ['*Username', 'username'],
];

describe('the import task', () => {
  it('goes pending → started → stopped → started → done, with Import, Stop, Continue, Finished', () => {
    let s = createImport(rows);
    expect([s.task, buttonOf(s)]).toEqual(['pending', 'import']);
    expect(nextRow(s)).toBe(-1);
    s = press(s);
    expect([s.task, buttonOf(s)]).toEqual(['started', 'stop']);
    expect(nextRow(s)).toBe(0);
    s = recordResult(s, 0, 'ok');
    s = press(s);
    expect([s.task, buttonOf(s)]).toEqual(['stopped', 'continue']);
    expect(nextRow(s)).toBe(-1);
    s = press(s);
    expect(s.task).toBe('started');
    expect(nextRow(s)).toBe(1);
    s = recordResult(recordResult(s, 1, 'ok'), 2, 'ok');
    expect([s.task, buttonOf(s)]).toEqual(['done', 'finished']);
    expect(press(s)).toBe(s);
  });

  it('offers Continue after a run with failures, and re-queues only the failed rows', () => {
    let s = press(createImport(rows));
    s = recordResult(s, 0, 'ok');
    s = recordResult(s, 1, { error: 'Email: bad' });
    s = recordResult(s, 2, 'ok');
    expect([s.task, buttonOf(s)]).toEqual(['done', 'continue']);
    expect(counts(s)).toEqual({ all: 3, ok: 2, error: 1, pending: 0 });
    s = press(s);
    expect(s.task).toBe('started');
    expect(s.rows.map((r) => r[STATUS])).toEqual(['ok', 'pending', 'ok']);
    expect(nextRow(s)).toBe(1);
  });

  it('counts, filters and measures progress by row status', () => {
    let s = press(createImport(rows));
    s = recordResult(s, 0, { error: 'x' });
    expect(progressPercent(s)).toBe(33);
    expect(filterRows(s, 'error').map((r) => r.username)).toEqual(['a']);
    expect(filterRows(s, 'pending').map((r) => r.username)).toEqual(['b', 'c']);
    expect(filterRows(s, 'ok')).toEqual([]);
    expect(filterRows(s, 'all')).toHaveLength(3);
    expect(rowBody(s.rows[0]!)).toEqual({ username: 'a' });
  });

  it('flattens a 400 body to "column label: message"', () => {
    expect(flattenRowError({ email: ['Enter a valid email address.'], username: ['Exists', 'Too long'] }, titles)).toBe(
      '*Email: Enter a valid email address.; *Username: Exists; Too long',
    );
    expect(flattenRowError({ detail: 'Please save in a org', code: 'x' }, titles)).toBe('Please save in a org');
    expect(flattenRowError(['Please save in a org'], titles)).toBe('Please save in a org');
    expect(flattenRowError({ phone: { phone: ['Invalid'] } }, titles)).toBe('phone: Invalid');
  });
});

describe('the import runner', () => {
  function harness(fails: Set<string>, stopAfter?: number) {
    let state: ImportState = press(createImport(rows));
    const sent: string[] = [];
    const sleeps: number[] = [];
    return {
      sent,
      sleeps,
      get state() {
        return state;
      },
      deps: {
        get: () => state,
        set: (s: ImportState) => {
          state = s;
        },
        send: async (row: Record<string, unknown>) => {
          sent.push(String(row.username));
          if (sent.length === stopAfter) state = press(state);
          if (fails.has(String(row.username))) throw { body: { email: ['bad'] } };
        },
        describeError: (e: unknown) => flattenRowError((e as { body: unknown }).body, titles),
        sleep: async (ms: number) => {
          sleeps.push(ms);
        },
      },
    };
  }

  it('sends rows one by one, 100 ms apart, and marks each ok or failed with its reason', async () => {
    const h = harness(new Set(['b']));
    await runImport(h.deps);
    expect(h.sent).toEqual(['a', 'b', 'c']);
    expect(h.sleeps).toEqual([100, 100, 100]);
    expect(h.state.task).toBe('done');
    expect(h.state.rows.map((r) => r[STATUS])).toEqual(['ok', { name: 'error', error: '*Email: bad' }, 'ok']);
  });

  it('stops after the row in flight when stopped, and continues from the next one', async () => {
    const h = harness(new Set(), 1);
    await runImport(h.deps);
    expect(h.sent).toEqual(['a']);
    expect(h.state.task).toBe('stopped');
    expect(h.state.rows.map((r) => r[STATUS])).toEqual(['ok', 'pending', 'pending']);
    h.deps.set(press(h.state));
    await runImport(h.deps);
    expect(h.sent).toEqual(['a', 'b', 'c']);
    expect(buttonOf(h.state)).toBe('finished');
  });
});
