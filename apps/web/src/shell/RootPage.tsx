import { useEffect } from 'react';
import { Button, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../lib/appStore.ts';
import { logout } from '../app/session.ts';
import { preferredView } from '../app/views.ts';
import { BUILT_VIEWS } from '../app/viewRoutes.ts';

/**
 * The root: with a view to go to, reset the app state so the startup sequence takes
 * the user there; without one, the overview says so.
 */
export function RootPage() {
  const { t } = useTranslation();
  const profile = useAppStore((s) => s.profile);
  const settings = useAppStore((s) => s.publicSettings);
  const reset = useAppStore((s) => s.reset);
  const view = profile ? preferredView(profile, settings, BUILT_VIEWS) : undefined;

  useEffect(() => {
    if (view) reset();
  }, [view, reset]);

  if (view) return <Spin fullscreen />;
  return (
    <Result
      status="info"
      title={t('shell.overview.title', { name: profile?.name ?? '' })}
      subTitle={t('shell.overview.empty')}
      data-testid="overview"
      extra={
        <Button
          onClick={() => {
            try {
              logout();
            } catch {
              /* leaving */
            }
          }}
        >
          {t('common.logout')}
        </Button>
      }
    />
  );
}
