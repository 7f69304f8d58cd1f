import { describe, expect, it } from 'vitest';
import type { PublicSettings } from '@gatehouse/contract';
import { announcementToShow, licenseBanners, licenseBannersAllowed, passwordBanner } from './banners.ts';

const now = new Date('2025-03-10T12:00:00Z');
const ids = (banners: { id: string }[]) => banners.map((b) => b.id);

describe('licence banners', () => {
  it('are fetched and shown only with the paid extension and settings.change_license', () => {
    const xpack = { XPACK_ENABLED: true } as PublicSettings;
    expect(licenseBannersAllowed(xpack, ['settings.change_license'])).toBe(true);
    expect(licenseBannersAllowed(xpack, ['settings.view_setting'])).toBe(false);
    expect(licenseBannersAllowed({ XPACK_ENABLED: false } as PublicSettings, ['settings.change_license'])).toBe(false);
    expect(licenseBannersAllowed(null, ['settings.change_license'])).toBe(false);
  });

  it('say the licence expired once its days left fall below 0', () => {
    expect(ids(licenseBanners({ date_expired: '2025-03-09T11:00:00Z' }, now))).toEqual(['license-expired']);
    expect(ids(licenseBanners({ date_expired: '2025-03-10T13:00:00Z' }, now))).toEqual(['license-expiring']);
  });

  it('warn with the date when fewer than 7 days are left, and stay quiet from 7 days on', () => {
    const expiring = licenseBanners({ date_expired: '2025-03-17T11:59:00Z' }, now);
    expect(expiring).toEqual([
      {
        id: 'license-expiring',
        type: 'warning',
        text: 'shell.banner.licenseExpiring',
        params: { date: '2025-03-17T11:59:00Z' },
      },
    ]);
    expect(licenseBanners({ date_expired: '2025-03-17T12:00:00Z' }, now)).toEqual([]);
  });

  it('warn when the assets exceed the licensed count', () => {
    const base = { date_expired: '2030-01-01' };
    expect(ids(licenseBanners({ ...base, asset_count: 100, current_asset_count: 101 }, now))).toEqual([
      'license-assets',
    ]);
    expect(licenseBanners({ ...base, asset_count: 100, current_asset_count: 100 }, now)).toEqual([]);
    expect(licenseBanners({ ...base, asset_count: null, current_asset_count: 5 }, now)).toEqual([]);
  });

  it('mark a testing licence', () => {
    expect(
      ids(licenseBanners({ date_expired: '2030-01-01', edition: { value: 'trial', label: 'Trial' } }, now)),
    ).toEqual(['license-testing']);
    expect(licenseBanners({ date_expired: '2030-01-01', edition: 'Standard' }, now)).toEqual([]);
    expect(licenseBanners(null, now)).toEqual([]);
  });
});

describe('password banners', () => {
  const settings = { SECURITY_PASSWORD_EXPIRATION_TIME: 90 };
  const local = (updated: string) => ({
    source: { value: 'local', label: 'Local' },
    date_password_last_updated: updated,
  });

  it('say the password expired after the expiration time', () => {
    expect(passwordBanner(local('2024-12-09T12:00:00Z'), settings, now)?.id).toBe('password-expired');
  });

  it('warn with the days left when it expires within 5 days', () => {
    expect(passwordBanner(local('2024-12-15T12:00:00Z'), settings, now)).toEqual({
      id: 'password-expiring',
      type: 'warning',
      text: 'shell.banner.passwordExpiring',
      params: { count: 5 },
    });
    expect(passwordBanner(local('2024-12-16T12:00:00Z'), settings, now)).toBeUndefined();
  });

  it('are only for local-source users', () => {
    const ldap = { source: { value: 'ldap', label: 'LDAP' }, date_password_last_updated: '2024-01-01T00:00:00Z' };
    expect(passwordBanner(ldap, settings, now)).toBeUndefined();
    expect(passwordBanner({ ...local('2024-01-01'), date_password_last_updated: null }, settings, now)).toBeUndefined();
  });
});

describe('announcement', () => {
  const a = { ID: 'id-1', SUBJECT: 'Maintenance', CONTENT: 'Sunday', LINK: '' };
  it('shows an enabled announcement until this browser dismissed its id', () => {
    expect(announcementToShow({ ANNOUNCEMENT_ENABLED: true, ANNOUNCEMENT: a }, null)).toEqual(a);
    expect(announcementToShow({ ANNOUNCEMENT_ENABLED: true, ANNOUNCEMENT: a }, 'id-1')).toBeUndefined();
    expect(announcementToShow({ ANNOUNCEMENT_ENABLED: true, ANNOUNCEMENT: { ...a, ID: 'id-2' } }, 'id-1')?.ID).toBe(
      'id-2',
    );
    expect(announcementToShow({ ANNOUNCEMENT_ENABLED: false, ANNOUNCEMENT: a }, null)).toBeUndefined();
    expect(
      announcementToShow({ ANNOUNCEMENT_ENABLED: true, ANNOUNCEMENT: { ...a, SUBJECT: '' } }, null),
    ).toBeUndefined();
  });
});
