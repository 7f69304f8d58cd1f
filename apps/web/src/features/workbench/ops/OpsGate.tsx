import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router';
import { useAppStore } from '../../../lib/appStore.ts';

const CentreDisabled = lazy(() => import('./CentreDisabled.tsx').then((m) => ({ default: m.CentreDisabled })));

/**
 * The job centre's pages, or what stands in for them while the centre is off: the public setting
 * `SECURITY_COMMAND_EXECUTION` (the server then refuses its API with 403 "Command execution
 * disabled"; its menu entries are hidden by the same setting).
 */
export function OpsGate() {
  const on = useAppStore((s) => s.publicSettings?.SECURITY_COMMAND_EXECUTION);
  if (on === false)
    return (
      <Suspense fallback={null}>
        <CentreDisabled />
      </Suspense>
    );
  return <Outlet />;
}
