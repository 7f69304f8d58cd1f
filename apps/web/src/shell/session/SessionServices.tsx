import { LazyWhen, lazyComponent } from '../../lib/LazyWhen.tsx';
import { useReverifyStore } from './reverifyStore.ts';
import { useHttpErrors } from './useHttpErrors.ts';

const ReverifyDialog = lazyComponent(() => import('./ReverifyDialog.tsx').then((m) => m.ReverifyDialog));

/**
 * The answers to failed calls (401, re-verification), mounted once with the navbar; the dialog's
 * code is loaded the first time a call asks for re-verification.
 */
export function SessionServices() {
  useHttpErrors();
  const asked = useReverifyStore((s) => Boolean(s.type));
  return (
    <LazyWhen when={asked}>
      <ReverifyDialog />
    </LazyWhen>
  );
}
