import { hasPermission, type Profile, type PublicSettings } from '@gatehouse/contract';

/**
 * The page-heading banners of the console: licence (expired, expiring, asset count
 * exceeded, testing licence) and password (expired, expiring). Pure, so the rules are tested
 * without a server; the texts are translation keys of the `shell` namespace.
 */
export const LICENSE_WARNING_DAYS = 7;
export const PASSWORD_WARNING_DAYS = 5;
const DAY_MS = 86_400_000;

/** GET /api/v1/xpack/license/detail (`edition` as lina's licence page shows it). */
export interface LicenseDetail {
  date_expired: string;
  corporation?: string;
  asset_count?: number | null;
  current_asset_count?: number | null;
  /** A testing (trial) licence says so in its edition. */
  edition?: string | { value: string; label?: string } | null;
}

export interface Banner {
  id:
    | 'license-expired'
    | 'license-expiring'
    | 'license-assets'
    | 'license-testing'
    | 'password-expired'
    | 'password-expiring';
  type: 'error' | 'warning' | 'info';
  /** Translation key. */
  text: string;
  params?: Record<string, string | number>;
}

/** Whole days from `now` until `date`, rounded down (negative once it has passed). */
export function daysUntil(date: Date, now: Date): number {
  return Math.floor((date.getTime() - now.getTime()) / DAY_MS);
}

/** The licence banners are fetched and shown only with the paid extension and settings.change_license. */
export function licenseBannersAllowed(
  settings: Pick<PublicSettings, 'XPACK_ENABLED'> | null,
  perms: ReadonlySet<string> | readonly string[],
): boolean {
  return Boolean(settings?.XPACK_ENABLED) && hasPermission(perms, 'settings.change_license');
}

const editionValue = (e: LicenseDetail['edition']) => (typeof e === 'string' ? e : (e?.value ?? '')).toLowerCase();

export function licenseBanners(detail: LicenseDetail | null | undefined, now: Date = new Date()): Banner[] {
  if (!detail) return [];
  const out: Banner[] = [];
  const expires = new Date(detail.date_expired);
  if (!Number.isNaN(expires.getTime())) {
    const left = daysUntil(expires, now);
    if (left < 0) out.push({ id: 'license-expired', type: 'error', text: 'shell.banner.licenseExpired' });
    else if (left < LICENSE_WARNING_DAYS) {
      out.push({
        id: 'license-expiring',
        type: 'warning',
        text: 'shell.banner.licenseExpiring',
        params: { date: detail.date_expired },
      });
    }
  }
  const limit = detail.asset_count;
  if (typeof limit === 'number' && limit > 0 && (detail.current_asset_count ?? 0) > limit) {
    out.push({ id: 'license-assets', type: 'warning', text: 'shell.banner.licenseAssetsExceeded' });
  }
  if (['trial', 'testing', 'test'].includes(editionValue(detail.edition))) {
    out.push({ id: 'license-testing', type: 'info', text: 'shell.banner.licenseTesting' });
  }
  return out;
}

/**
 * Local-source users whose password expired, or expires within 5 days: the last change plus
 * SECURITY_PASSWORD_EXPIRATION_TIME days.
 */
export function passwordBanner(
  profile: Pick<Profile, 'source' | 'date_password_last_updated'> | null | undefined,
  settings: Pick<PublicSettings, 'SECURITY_PASSWORD_EXPIRATION_TIME'> | null | undefined,
  now: Date = new Date(),
): Banner | undefined {
  if (!profile || !settings || profile.source?.value !== 'local' || !profile.date_password_last_updated)
    return undefined;
  const changed = new Date(profile.date_password_last_updated);
  const days = settings.SECURITY_PASSWORD_EXPIRATION_TIME;
  if (Number.isNaN(changed.getTime()) || !(days > 0)) return undefined;
  const left = daysUntil(new Date(changed.getTime() + days * DAY_MS), now);
  if (left < 0) return { id: 'password-expired', type: 'error', text: 'shell.banner.passwordExpired' };
  if (left <= PASSWORD_WARNING_DAYS)
    return { id: 'password-expiring', type: 'warning', text: 'shell.banner.passwordExpiring', params: { count: left } };
  return undefined;
}

/** The announcement of Features › Announcement (public settings `ANNOUNCEMENT_ENABLED`, `ANNOUNCEMENT`). */
export interface Announcement {
  ID: string;
  SUBJECT: string;
  CONTENT: string;
  LINK: string;
}

/** Where the id of the announcement the user dismissed is kept (each save gives a new id). */
export const ANNOUNCEMENT_DISMISSED_KEY = 'gatehouse.announcement.dismissed';

/** The announcement to show: enabled, with a subject, and not the one this browser dismissed. */
export function announcementToShow(
  settings: Readonly<Record<string, unknown>> | null | undefined,
  dismissedId: string | null,
): Announcement | undefined {
  const a = settings?.ANNOUNCEMENT as Partial<Announcement> | undefined;
  if (!settings?.ANNOUNCEMENT_ENABLED || !a?.ID || !a.SUBJECT || a.ID === dismissedId) return undefined;
  return { ID: a.ID, SUBJECT: a.SUBJECT, CONTENT: a.CONTENT ?? '', LINK: a.LINK ?? '' };
}
