import { createRoot } from 'react-dom/client';
import { App, ConfigProvider } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { antdLocale, initI18n } from '../../lib/i18n/index.ts';
import { antdTheme, applyTheme, storedThemeVariables, themeVariables } from '../../lib/theme.ts';
import { LunaPage } from './LunaPage.tsx';
import './luna.css';

/** The web terminal entry (`luna.html`, served at /luna/): its own page, xterm.js only here. */
const theme = storedThemeVariables() ?? themeVariables();
/** Holds the favourite asset ids the tree's stars share with My assets' (`FavoriteStar.tsx`). */
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
applyTheme(theme);
void initI18n()
  .catch(() => undefined)
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      // No StrictMode: its double effects in development would open each one-time token's socket twice.
      <ConfigProvider theme={antdTheme(theme)} locale={antdLocale()}>
        <App>
          <QueryClientProvider client={queryClient}>
            <LunaPage />
          </QueryClientProvider>
        </App>
      </ConfigProvider>,
    ),
  );
