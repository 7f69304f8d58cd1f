import { useEffect } from 'react';
import { useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { RouteMeta } from './routeTypes.ts';
import { useAppStore } from './appStore.ts';

/** Page title = route title + the login title of the public settings. */
export function usePageTitle(): string | undefined {
  const matches = useMatches();
  const { t } = useTranslation();
  const loginTitle = useAppStore((s) => s.publicSettings?.INTERFACE.login_title) ?? 'Gatehouse';
  const meta = [...matches].reverse().find((m) => (m.handle as RouteMeta | undefined)?.title)?.handle as
    RouteMeta | undefined;
  const title = meta ? t(meta.title) : undefined;
  useEffect(() => {
    document.title = title ? `${title} - ${loginTitle}` : loginTitle;
  }, [title, loginTitle]);
  return title;
}
