import { hasPermission, type Profile, type PublicSettings } from '@gatehouse/contract';
import type { ViewName } from './orgs.ts';

/** View rules of spec 01 §2: which views a user is offered, and PreView. */
export const PRE_VIEW_KEY = 'PreView';

export const SWITCHABLE_VIEWS = ['console', 'audit', 'workbench', 'tickets', 'settings'] as const;
export type SwitchableView = (typeof SWITCHABLE_VIEWS)[number];

export function isViewPermitted(view: SwitchableView, profile: Profile, settings: PublicSettings | null): boolean {
  switch (view) {
    case 'console':
      return profile.console_orgs.length > 0;
    case 'audit':
      return profile.audit_orgs.length > 0;
    case 'workbench':
      return true;
    case 'tickets':
      return Boolean(settings?.XPACK_LICENSE_IS_VALID) && hasPermission(profile.perms, 'tickets.view_ticket');
    case 'settings':
      return hasPermission(profile.perms, 'settings.view_setting');
  }
}

/** The view of a path: its first segment when it names one. */
export function viewOfPath(pathname: string): ViewName {
  const first = pathname.replace(/^\/+/, '').split('/')[0] ?? '';
  return (['console', 'audit', 'workbench', 'tickets', 'settings', 'profile'] as string[]).includes(first) ? (first as ViewName) : '';
}

/** PreView when permitted and built, else the first permitted and built view. */
export function preferredView(
  profile: Profile,
  settings: PublicSettings | null,
  built: ReadonlySet<string>,
): SwitchableView | undefined {
  const usable = SWITCHABLE_VIEWS.filter((v) => built.has(v) && isViewPermitted(v, profile, settings));
  const stored = localStorage.getItem(PRE_VIEW_KEY) as SwitchableView | null;
  return stored && usable.includes(stored) ? stored : usable[0];
}
