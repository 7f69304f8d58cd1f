import { describe, expect, it } from 'vitest';
import type { SettingFields } from '@gatehouse/contract';
import { validateCategory } from './settingValidate.ts';

/** The checks behind the settings API, on a declaration with every kind of field (a secret too). */
const FIELDS: SettingFields = {
  FLAG: { type: 'bool' },
  COUNT: { type: 'int', min: 1, max: 10 },
  LEVEL: { type: 'choice', choices: [0, 1, 2] },
  SITE: { type: 'string', maxLength: 30, url: true },
  TOKEN: { type: 'string', maxLength: 64, secret: true },
};

describe('validateCategory', () => {
  it('coerces what the console and old clients send', () => {
    expect(
      validateCategory(FIELDS, { FLAG: 'false', COUNT: ' 7 ', LEVEL: '2', SITE: ' https://a.example ' }, true, 'en'),
    ).toEqual({
      ok: true,
      values: { FLAG: false, COUNT: 7, LEVEL: 2, SITE: 'https://a.example' },
    });
  });

  it('names each bad field, in the caller’s language', () => {
    const r = validateCategory(
      FIELDS,
      { FLAG: 'perhaps', COUNT: 11, LEVEL: true, SITE: 'ftp://a.example', TOKEN: 5 },
      true,
      'zh',
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual(['COUNT', 'FLAG', 'LEVEL', 'SITE', 'TOKEN']);
    expect(r.errors.SITE).toEqual(['输入一个有效的URL。']);
    expect(validateCategory(FIELDS, { COUNT: 1.5 }, true, 'en')).toEqual({
      ok: false,
      errors: { COUNT: ['A valid integer is required.'] },
    });
  });

  it('keeps a stored secret when the secret is sent empty, and does not require it on PUT', () => {
    expect(validateCategory(FIELDS, { TOKEN: '' }, true, 'en')).toEqual({ ok: true, values: {} });
    expect(validateCategory(FIELDS, { TOKEN: 's3cret' }, true, 'en')).toEqual({
      ok: true,
      values: { TOKEN: 's3cret' },
    });
    const put = validateCategory(FIELDS, { FLAG: true }, false, 'en');
    expect(put.ok ? [] : Object.keys(put.errors).sort()).toEqual(['COUNT', 'LEVEL', 'SITE']);
  });
});
