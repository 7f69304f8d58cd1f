import { hasPermission, licenseIsValid, type Profile, type PublicSettings } from '@gatehouse/contract';
import type { ViewName } from '../lib/orgs.ts';

/** View rules of the console: which views a user is offered, and PreView. */
export const PRE_VIEW_KEY = 'PreView';

export const SWITCHABLE_VIEWS = ['console', 'audit', 'workbench', 'tickets', 'settings'] as const;
export type SwitchableView = (typeof SWITCHABLE_VIEWS)[number];

export const isSwitchableView = (v: string): v is SwitchableView => (SWITCHABLE_VIEWS as readonly string[]).includes(v);

/** console and audit need organisations for them; workbench is always offered; tickets and settings need permissions. */
export function isViewPermitted(view: SwitchableView, profile: Profile, settings: PublicSettings | null): boolean {
  switch (view) {
    case 'console':
      return profile.console_orgs.length > 0;
    case 'audit':
      return profile.audit_orgs.length > 0;
    case 'workbench':
      return true;
    case 'tickets':
      return licenseIsValid(settings) && hasPermission(profile.perms, 'tickets.view_ticket');
    case 'settings':
      return hasPermission(profile.perms, 'settings.view_setting');
  }
}

/** The view of a path: its first segment when it names one. */
export function viewOfPath(pathname: string): ViewName {
  const first = pathname.replace(/^\/+/, '').split('/')[0] ?? '';
  return (['console', 'audit', 'workbench', 'tickets', 'settings', 'profile'] as string[]).includes(first)
    ? (first as ViewName)
    : '';
}

/** The views a user may use: built into this console and permitted, in the order of the switcher. */
export function usableViews(
  profile: Profile,
  settings: PublicSettings | null,
  built: ReadonlySet<string>,
): SwitchableView[] {
  return SWITCHABLE_VIEWS.filter((v) => built.has(v) && isViewPermitted(v, profile, settings));
}

export function storedPreView(): string | null {
  try {
    return localStorage.getItem(PRE_VIEW_KEY);
  } catch {
    return null;
  }
}

export function storePreView(view: SwitchableView): void {
  localStorage.setItem(PRE_VIEW_KEY, view);
}

/** PreView when usable, else the first usable view. */
export function preferredView(
  profile: Profile,
  settings: PublicSettings | null,
  built: ReadonlySet<string>,
): SwitchableView | undefined {
  const usable = usableViews(profile, settings, built);
  const stored = storedPreView();
  return stored && (usable as string[]).includes(stored) ? (stored as SwitchableView) : usable[0];
}

export interface ViewCheck {
  /** The view the session works in ('' when none is usable). */
  view: ViewName;
  /** Where to go instead of the asked path. */
  redirect?: string;
}

/**
 * The view check of the startup sequence: the root goes to the preferred view (or stays on the
 * overview when there is none); a view that is not built or not permitted gives way to the
 * preferred one; other paths need no check.
 */
export function checkView(
  pathname: string,
  profile: Profile,
  settings: PublicSettings | null,
  built: ReadonlySet<string>,
): ViewCheck {
  const asked = viewOfPath(pathname);
  const fallback = preferredView(profile, settings, built);
  if (asked === '') {
    const isRoot = pathname.replace(/\/+$/, '') === '';
    if (isRoot && fallback) return { view: fallback, redirect: `/${fallback}` };
    return { view: fallback ?? '' };
  }
  if (isSwitchableView(asked) && (!built.has(asked) || !isViewPermitted(asked, profile, settings))) {
    return { view: fallback ?? '', redirect: fallback ? `/${fallback}` : '/' };
  }
  return { view: asked };
}

/** The views the switcher lists: view routes marked for it that the user may use. */
export function switcherViews(
  marked: readonly string[],
  profile: Profile,
  settings: PublicSettings | null,
): SwitchableView[] {
  return SWITCHABLE_VIEWS.filter((v) => marked.includes(v) && isViewPermitted(v, profile, settings));
}
