import { ReverifyDialog } from './ReverifyDialog.tsx';
import { useHttpErrors } from './useHttpErrors.ts';

/** The answers to failed calls (401, re-verification), mounted once with the navbar. */
export function SessionServices() {
  useHttpErrors();
  return <ReverifyDialog />;
}
