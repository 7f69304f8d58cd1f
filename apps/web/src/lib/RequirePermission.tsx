import type { ReactNode } from 'react';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from './appStore.ts';
import { ForbiddenPage } from './ForbiddenPage.tsx';

/** Renders its page only when the user holds the permissions; otherwise the 403 page. */
export function RequirePermission({ perms, children }: { perms: string | string[]; children: ReactNode }) {
  const held = useAppStore((s) => s.perms);
  return hasPermission(held, perms) ? <>{children}</> : <ForbiddenPage />;
}
