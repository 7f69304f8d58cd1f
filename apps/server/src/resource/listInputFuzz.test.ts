import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../test-support/testApp.ts';
import { allDefs } from './registry.ts';

/**
 * No input to a list answers 500: every declared resource's list (so a new resource inherits the
 * test) gets arbitrary strings, repeated parameters and huge numbers in its list parameters and
 * its declared filters.
 */
let t: TestApp;
let admin: SessionClient;

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
});
afterAll(() => t.close());

const COMMON = ['limit', 'offset', 'search', 'order', 'ids', 'id!', 'id', 'spm', 'date_from', 'date_to', 'fields_size'];

const hugeNumber = fc.oneof(
  fc.constantFrom(
    '9223372036854775808',
    '18446744073709551616',
    '1e309',
    '-1',
    '0',
    '00',
    '2147483648',
    '-9223372036854775809',
  ),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
);
/** Whitespace around a value, as the original console sends some (`?days=7 `). */
const padded = fc
  .tuple(
    fc.constantFrom('', ' ', '\t', '  ', '\n'),
    fc.oneof(hugeNumber, fc.constantFrom('true', 'True', '1', 'yes')),
    fc.constantFrom('', ' ', '\t'),
  )
  .map(([a, v, b]) => `${a}${v}${b}`);
const value = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  hugeNumber,
  padded,
);
/** limit and offset: mostly numbers, small or past what a database takes. */
const numeric = fc.oneof(hugeNumber, fc.nat().map(String), value).map((v) => [v]);
/** One value, or the parameter repeated (an array after parsing). */
const param = fc.oneof(
  value.map((v) => [v]),
  fc.array(value, { minLength: 2, maxLength: 3 }),
);

function queryString(params: Record<string, string[]>): string {
  return Object.entries(params)
    .flatMap(([k, vs]) => vs.map((v) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`))
    .join('&');
}

describe('list parameters never answer 500', () => {
  it('on the known offenders', async () => {
    const users = '/api/v1/users/users/';
    for (const url of [
      `${users}?limit=10&offset=9223372036854775808`,
      `${users}?limit=10&offset=99999999999999999999999`,
      `${users}?search=a&search=b`,
      '/api/v1/assets/nodes/suggestions/?search=a&search=b',
      '/api/v1/assets/nodes/children/tree/?search=a&search=b',
      '/api/v1/assets/assets/suggestions/?search=a&search=b',
    ]) {
      const res = await admin.get(url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    }
    const page = await admin.get(`${users}?limit=10&offset=9223372036854775808`);
    expect(page.json()).toMatchObject({ results: [] });
    // Padded numbers are numbers: a page of one, not the whole list.
    const one = await admin.get(`${users}?limit=%201%20&offset=%200`);
    expect(one.json().results).toHaveLength(1);
  });

  it('fuzzed over every resource', { timeout: 240_000 }, async () => {
    const defs = allDefs();
    expect(defs.length).toBeGreaterThan(20);
    for (const def of defs) {
      const own = [...Object.keys(def.fields), ...Object.keys(def.extraFilters ?? {})];
      const params = fc
        .tuple(
          fc.record({ limit: numeric, offset: numeric }, { requiredKeys: [] }),
          fc.dictionary(fc.constantFrom(...COMMON), param, { maxKeys: 4 }),
          fc.dictionary(fc.constantFrom(...own), param, { maxKeys: 3 }),
        )
        .map(([paging, common, fields]) => ({ ...fields, ...common, ...paging }));
      await fc.assert(
        fc.asyncProperty(params, async (p) => {
          const url = `${def.url}?${queryString(p)}`;
          const res = await admin.get(url);
          if (res.statusCode >= 500) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
        }),
        { numRuns: 40 },
      );
    }
  });
});
