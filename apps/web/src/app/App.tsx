import { useEffect, useMemo } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { ConfigProvider } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ROUTES } from './routes.tsx';
import { antdTheme, applyFavicon, applyTheme, primaryOf, storedThemeVariables, themeVariables } from '../lib/theme.ts';
import { antdLocale } from '../lib/i18n/index.ts';
import { useAppStore } from '../lib/appStore.ts';
import { LazyApp } from '../lib/LazyApp.tsx';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, staleTime: 30_000, refetchOnWindowFocus: false } },
});

export function App() {
  // Re-renders on a language change (antd's texts follow it).
  useTranslation();
  const router = useMemo(() => createBrowserRouter(ROUTES as never, { basename: '/ui' }), []);
  const iface = useAppStore((s) => s.publicSettings?.INTERFACE);
  // Until the public settings load, the colours of the last run.
  const theme = useMemo(
    () => (iface ? themeVariables(primaryOf(iface)) : (storedThemeVariables() ?? themeVariables())),
    [iface],
  );
  useEffect(() => applyTheme(theme), [theme]);
  useEffect(() => applyFavicon(iface?.favicon), [iface?.favicon]);
  return (
    <ConfigProvider theme={antdTheme(theme)} locale={antdLocale()}>
      <LazyApp>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </LazyApp>
    </ConfigProvider>
  );
}
