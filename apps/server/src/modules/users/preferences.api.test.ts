import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { signedInUser } from '../../../test-support/profile.ts';

/** Preferences: defaults merged with the caller's own stored values, validated per field. */
let t: TestApp;
let frank: SessionClient;
let grace: SessionClient;
const PREF = '/api/v1/users/preference/';
const patch = (c: SessionClient, category: string, payload: unknown, headers: Record<string, string> = {}) =>
  c.request({ method: 'PATCH', url: `${PREF}?category=${category}`, payload: payload as object, headers });

beforeAll(async () => {
  t = await createTestApp();
  frank = (await signedInUser(t, 'frank')).client;
  grace = (await signedInUser(t, 'grace')).client;
});
afterAll(async () => t.close());

describe('preferences', () => {
  it('answers the defaults grouped as the contract shows', async () => {
    expect((await frank.get(`${PREF}?category=koko`)).json()).toEqual({
      basic: { file_name_conflict_resolution: 'replace' },
    });
    const luna = (await frank.get(`${PREF}?category=luna`)).json();
    expect(luna.graphics).toEqual({
      rdp_resolution: 'auto',
      keyboard_layout: 'en-us-qwerty',
      rdp_client_option: ['full_screen'],
      applet_connection_method: 'web',
    });
    expect(luna.command_line.character_terminal_font_size).toBe(14);
    expect((await frank.get(`${PREF}?category=lina`)).json()).toEqual({ basic: { has_secret_key: false } });
  });

  it('stores valid values for the caller only, and refuses invalid ones per field in the caller language', async () => {
    const saved = await patch(frank, 'luna', {
      graphics: { rdp_resolution: '1920x1080', rdp_client_option: ['multi_screen', 'drives_redirect'] },
      command_line: { character_terminal_font_size: 18 },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().graphics.rdp_resolution).toBe('1920x1080');
    expect((await frank.get(`${PREF}?category=luna`)).json().command_line.character_terminal_font_size).toBe(18);
    expect((await grace.get(`${PREF}?category=luna`)).json().graphics.rdp_resolution).toBe('auto');

    const bad = await patch(frank, 'luna', {
      graphics: { rdp_resolution: '800x600' },
      command_line: { character_terminal_font_size: 999, is_backspace_as_ctrl_h: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      graphics: { rdp_resolution: ['"800x600" is not a valid choice.'] },
      command_line: {
        character_terminal_font_size: ['Enter a whole number from 8 to 36.'],
        is_backspace_as_ctrl_h: ['Must be a valid boolean.'],
      },
    });
    // Nothing of a refused request is kept.
    expect((await frank.get(`${PREF}?category=luna`)).json().graphics.rdp_resolution).toBe('1920x1080');
    const zh = await patch(
      frank,
      'koko',
      { basic: { file_name_conflict_resolution: 'merge' } },
      { 'accept-language': 'zh' },
    );
    expect(zh.json().basic.file_name_conflict_resolution[0]).toBe('"merge" 不是有效的选项。');
    expect((await patch(frank, 'koko', { basic: { file_name_conflict_resolution: 'suffix' } })).statusCode).toBe(200);
  });

  it('refuses an unknown category or field, and a body that is no object, with a 400', async () => {
    expect((await frank.get(`${PREF}?category=nope`)).statusCode).toBe(400);
    expect((await frank.get(PREF)).statusCode).toBe(400);
    expect((await patch(frank, 'koko', { basic: { nope: 1 } })).statusCode).toBe(400);
    expect((await patch(frank, 'koko', [1, 2])).statusCode).toBe(400);
    expect((await patch(frank, 'koko', { basic: 'x' })).statusCode).toBe(400);
  });

  it('keeps the lina export password sealed, reporting only that it is set', async () => {
    const mismatch = await patch(frank, 'lina', { basic: { secret_key: 'Export-1', secret_key_again: 'Export-2' } });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().basic.secret_key_again).toEqual(['The two passwords do not match.']);
    expect((await patch(frank, 'lina', { basic: { secret_key: 'abc', secret_key_again: 'abc' } })).statusCode).toBe(
      400,
    );
    const ok = await patch(frank, 'lina', { basic: { secret_key: 'Export-1', secret_key_again: 'Export-1' } });
    expect(ok.json()).toEqual({ basic: { has_secret_key: true } });
    const row = await t.deps.database.db
      .selectFrom('users_preference')
      .selectAll()
      .where('category', '=', 'lina')
      .executeTakeFirstOrThrow();
    expect(row.value).not.toContain('Export-1');
    expect(t.deps.secretBox.decrypt(row.value)).toBe('Export-1');
    expect((await grace.get(`${PREF}?category=lina`)).json().basic.has_secret_key).toBe(false);
  });
});
