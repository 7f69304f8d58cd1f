import { describe, expect, it } from 'vitest';
import { SETTING_CATEGORIES } from '@gatehouse/contract';
import en from '../../../lib/i18n/locales/en/settings.json';
import ja from '../../../lib/i18n/locales/ja/settings.json';
import zh from '../../../lib/i18n/locales/zh/settings.json';
import { CLEAN_PAGE, SECURITY_PAGE, TERMINAL_PAGE, changedValues } from './settingsPages.ts';

describe('settings pages', () => {
  it('send only what changed', () => {
    expect(changedValues({ A: 1, B: true, C: 'x' }, { A: 1, B: false, C: 'x', D: undefined })).toEqual({ B: false });
    expect(changedValues({ A: 30 }, { A: 45 })).toEqual({ A: 45 });
  });

  it('show every field of their category once, each labelled in every language', () => {
    for (const page of [SECURITY_PAGE, TERMINAL_PAGE, CLEAN_PAGE]) {
      const shown = page.sections.flatMap((s) => s.fields);
      expect([...shown].sort()).toEqual(Object.keys(SETTING_CATEGORIES[page.category]).sort());
      for (const cat of [en, zh, ja]) {
        for (const s of page.sections) expect(cat.section, s.title).toHaveProperty(s.title);
        for (const name of shown)
          expect((cat.field as Record<string, { label?: string }>)[name]?.label, name).toBeTruthy();
      }
    }
  });
});
