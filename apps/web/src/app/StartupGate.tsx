import { Suspense, useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../lib/appStore.ts';
import { takeStartup } from './startup.ts';
import { Leaving } from './session.ts';
import { BUILT_VIEWS, hasRoute } from './viewRoutes.ts';
import { HttpError } from '../lib/http.ts';
import { lazyComponent } from '../lib/LazyWhen.tsx';

const StartupError = lazyComponent(() => import('./StartupError.tsx').then((m) => m.StartupError));
import { errorAction } from '../lib/httpErrors.ts';

const IMPROVEMENT_PATH = '/profile/improvement';

const currentPath = () => window.location.pathname.replace(/^\/ui(?=\/|$)/, '') || '/';

/** Runs the startup sequence once per app state before any page renders. */
export function StartupGate() {
  const inited = useAppStore((s) => s.inited);
  const firstLogin = useAppStore((s) => s.profile?.is_first_login === true);
  const install = useAppStore((s) => s.set);
  const location = useLocation();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const [error, setError] = useState<string>();
  const [attempt, setAttempt] = useState(0);
  // The address the sequence sent the user to, until the router shows it.
  const [redirecting, setRedirecting] = useState<string>();

  useEffect(() => {
    if (inited) return;
    let cancelled = false;
    // The browser's address is current even while the router is still rendering a navigation.
    const path = currentPath();
    takeStartup(path, { builtViews: BUILT_VIEWS, hasRoute })
      .then((r) => {
        if (cancelled) return;
        if (r.redirect && r.redirect !== path) {
          setRedirecting(r.redirect);
          void navigate(r.redirect, { replace: true });
        }
        install({ ...r.state, inited: true });
      })
      .catch((e: unknown) => {
        if (cancelled || e instanceof Leaving) return;
        // The public settings refuse an untrusted host with a 400: say what to configure.
        const action = e instanceof HttpError ? errorAction(e.status, e.url, e.data, e.message) : undefined;
        if (action?.kind === 'trustedDomains') setError(t('session.error.trustedDomains'));
        else if (action?.kind === 'toast' && action.message) setError(action.message);
        else setError(e instanceof Error ? e.message : String(e));
      });
    return () => {
      cancelled = true;
    };
    // The sequence runs once per app state; later navigation does not re-run it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [inited, attempt]);

  useEffect(() => {
    if (redirecting && location.pathname === redirecting) setRedirecting(undefined);
  }, [redirecting, location.pathname]);

  if (error) {
    return (
      <Suspense fallback={null}>
        <StartupError
          error={error}
          onRetry={() => {
            setError(undefined);
            setAttempt((a) => a + 1);
          }}
        />
      </Suspense>
    );
  }
  // No page renders at the address the sequence turned away from (its catch-all would navigate on).
  if (!inited || (redirecting && location.pathname !== redirecting))
    return <Spin fullscreen tip={t('common.loading')} />;
  // The first login stays in the profile until the improvement page is finished.
  if (firstLogin && hasRoute(IMPROVEMENT_PATH) && !location.pathname.startsWith('/profile/'))
    return <Navigate to={IMPROVEMENT_PATH} replace />;
  return <Outlet />;
}
