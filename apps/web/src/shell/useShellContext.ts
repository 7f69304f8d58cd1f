import { useMemo } from 'react';
import { useLocation, useMatches } from 'react-router';
import {
  licenseIsValid,
  routeHiddenReason,
  type PublicSettings,
  type ResolvedRouteMeta,
  type VisibilityContext,
} from '@gatehouse/contract';
import type { PreparedHandle, PreparedRoute } from '../lib/routeTypes.ts';
import { useAppStore } from '../lib/appStore.ts';
import { preferredView, viewOfPath } from '../app/views.ts';
import { BUILT_VIEWS, PREPARED_VIEWS, viewRoute } from '../app/viewRoutes.ts';
import { useShellStore } from './shellStore.ts';

/** What the hiding rules need: the user's permissions, the public settings, the licence. */
export function useVisibility(): VisibilityContext<PublicSettings> {
  const perms = useAppStore((s) => s.perms);
  const settings = useAppStore((s) => s.publicSettings);
  return useMemo(() => ({ perms, settings, licenseValid: licenseIsValid(settings) }), [perms, settings]);
}

/** The view a page belongs to; pages outside the views (404, redirect) keep the last one. */
export function useCurrentView(): PreparedRoute {
  const { pathname } = useLocation();
  const lastView = useShellStore((s) => s.lastView);
  const profile = useAppStore((s) => s.profile);
  const settings = useAppStore((s) => s.publicSettings);
  const own = viewRoute(viewOfPath(pathname));
  if (own) return own;
  const fallback = lastView ?? (profile ? preferredView(profile, settings, BUILT_VIEWS) : undefined);
  return viewRoute(fallback) ?? PREPARED_VIEWS[0]!;
}

/** The matched routes' metadata, outermost first. */
export function useMatchedMeta(): { handle: PreparedHandle; meta: ResolvedRouteMeta<PublicSettings> }[] {
  const matches = useMatches();
  return matches
    .map((m) => m.handle as PreparedHandle | undefined)
    .filter((h): h is PreparedHandle => Boolean(h?.resolved))
    .map((handle) => ({ handle, meta: handle.resolved }));
}

export type PageAccess = 'ok' | 'forbidden' | 'notFound';

/**
 * Whether a page may be shown: every matched route must be permitted (403 otherwise) and licensed
 * (404 otherwise). The hidden flag only keeps a route out of the menu. This is the console's one
 * route guard: pages do not wrap themselves in permission checks, their route metadata decides.
 */
export function pageAccess(
  matched: readonly ResolvedRouteMeta<PublicSettings>[],
  ctx: VisibilityContext<PublicSettings>,
): PageAccess {
  for (const meta of matched) {
    const reason = routeHiddenReason({ ...meta, hidden: false }, ctx);
    if (reason === 'permission') return 'forbidden';
    if (reason === 'license') return 'notFound';
  }
  return 'ok';
}

/** `pageAccess` of the current page. */
export function usePageAccess(): PageAccess {
  const matched = useMatchedMeta();
  const ctx = useVisibility();
  return pageAccess(
    matched.map((m) => m.meta),
    ctx,
  );
}
