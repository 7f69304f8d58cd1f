import { useLayoutEffect, useState, type ReactNode } from 'react';
import { enterGlobalOrg } from './orgs.ts';
import { useAppStore } from './appStore.ts';

/**
 * Shows its pages in the global organisation (`globalOrg.vue`; the roles
 * pages): entering switches to it and remembers the org in use, leaving restores that org. The
 * pages render only once the switch is made, so their first requests already carry the global org.
 */
export function GlobalOrg({ children }: { children: ReactNode }) {
  const profile = useAppStore((s) => s.profile);
  const [ready, setReady] = useState(false);
  useLayoutEffect(() => {
    if (!profile) return undefined;
    const entered = enterGlobalOrg(profile, useAppStore.getState().currentOrg);
    if (entered) useAppStore.setState({ currentOrg: entered.root });
    setReady(true);
    return () => {
      const back = entered?.leave();
      if (back) useAppStore.setState({ currentOrg: back });
    };
  }, [profile]);
  return ready ? children : null;
}
