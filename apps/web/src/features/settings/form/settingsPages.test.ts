import { describe, expect, it } from 'vitest';
import { SETTING_CATEGORIES } from '@gatehouse/contract';
import en from '../../../lib/i18n/locales/en/settings.json';
import ja from '../../../lib/i18n/locales/ja/settings.json';
import zh from '../../../lib/i18n/locales/zh/settings.json';
import {
  ANNOUNCEMENT_PAGE,
  AUTH_PAGE,
  CAS_PAGE,
  CLEAN_PAGE,
  DINGTALK_PAGE,
  FEISHU_PAGE,
  WECOM_PAGE,
  EMAIL_CONTENT_PAGE,
  EMAIL_PAGE,
  LDAP_PAGE,
  OAUTH2_PAGE,
  OIDC_PAGE,
  OPS_PAGE,
  PASSKEY_PAGE,
  RADIUS_PAGE,
  SAML2_PAGE,
  SECURITY_PAGE,
  SMS_BACKEND_PAGES,
  SMS_PAGE,
  TERMINAL_PAGE,
  TICKET_PAGE,
  VAULT_PAGE,
  changedValues,
} from './settingsPages.ts';

describe('settings pages', () => {
  it('send only what changed', () => {
    expect(changedValues({ A: 1, B: true, C: 'x' }, { A: 1, B: false, C: 'x', D: undefined })).toEqual({ B: false });
    expect(changedValues({ A: 30 }, { A: 45 })).toEqual({ A: 45 });
    // An object whose fields come back in another order is unchanged.
    expect(changedValues({ O: { ID: '1', S: 'a' } }, { O: { S: 'a', ID: '1' } })).toEqual({});
  });

  it('show every field of their category once, each labelled in every language', () => {
    for (const page of [
      SECURITY_PAGE,
      TERMINAL_PAGE,
      CLEAN_PAGE,
      AUTH_PAGE,
      LDAP_PAGE,
      RADIUS_PAGE,
      OIDC_PAGE,
      OAUTH2_PAGE,
      SAML2_PAGE,
      EMAIL_PAGE,
      EMAIL_CONTENT_PAGE,
      ANNOUNCEMENT_PAGE,
      TICKET_PAGE,
      OPS_PAGE,
      VAULT_PAGE,
      SMS_PAGE,
      ...SMS_BACKEND_PAGES,
      CAS_PAGE,
      PASSKEY_PAGE,
      WECOM_PAGE,
      DINGTALK_PAGE,
      FEISHU_PAGE,
    ]) {
      const shown = page.sections.flatMap((s) => s.fields);
      expect([...shown].sort()).toEqual(Object.keys(SETTING_CATEGORIES[page.category]).sort());
      for (const cat of [en, zh, ja]) {
        for (const s of page.sections) expect(cat.section, s.title).toHaveProperty(s.title);
        for (const name of shown)
          expect((cat.field as Record<string, { label?: string }>)[name]?.label, name).toBeTruthy();
      }
    }
  });

  it('name the FeiShu versions in every language instead of showing the raw values', () => {
    const field = SETTING_CATEGORIES.feishu.FEISHU_VERSION;
    const values = field?.type === 'choice' ? field.choices.map(String) : [];
    expect(values).toEqual(['feishu', 'lark']);
    const names = [en, zh, ja].map((cat) =>
      values.map((v) => (cat.choice as Record<string, Record<string, string>>).FEISHU_VERSION?.[v]),
    );
    expect(names).toEqual([
      ['FeiShu', 'Lark'],
      ['飞书', 'Lark'],
      ['Feishu（飛書）', 'Lark'],
    ]);
  });
});
