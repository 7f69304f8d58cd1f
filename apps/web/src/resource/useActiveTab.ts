import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { getCookie, setCookie } from '../lib/cookies.ts';

const KEY = 'activeTab';
const ONE_DAY = 86400;

/**
 * The active tab: the `activeTab` query, else the `activeTab` cookie, else the default.
 * A click keeps the choice in the cookie for a day and clears the query value; a link to the same
 * page with another `?activeTab=` (e.g. an execution's "Records") switches to that tab.
 */
export function useActiveTab(tabs: readonly string[], fallback: string): [string, (tab: string) => void] {
  const [params, setParams] = useSearchParams();
  const [active, setActive] = useState(
    () => [params.get(KEY), getCookie(KEY)].find((x): x is string => Boolean(x && tabs.includes(x))) ?? fallback,
  );
  const asked = params.get(KEY);
  useEffect(() => {
    if (asked && tabs.includes(asked)) setActive(asked);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- follows the query only; tabs is rebuilt every render
  }, [asked]);
  const choose = (tab: string) => {
    setActive(tab);
    setCookie(KEY, tab, { maxAge: ONE_DAY });
    if (params.has(KEY)) {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.delete(KEY);
          return next;
        },
        { replace: true },
      );
    }
  };
  return [tabs.includes(active) ? active : fallback, choose];
}
