import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { matchRoutes } from 'react-router';
import { initI18n } from '../lib/i18n/index.ts';
import { preloadMatched } from '../lib/lazyPage.tsx';
import { ROUTES } from './routes.tsx';
import { startStartupEarly } from './startup.ts';
import { BUILT_VIEWS, hasRoute } from './viewRoutes.ts';
import './global.css';

// The page's chunks load while its language loads and the startup sequence runs.
preloadMatched(matchRoutes(ROUTES as never, window.location.pathname, '/ui'));
// And its startup sequence (public settings, profile, org) goes out before the first render.
startStartupEarly(window.location.pathname.replace(/^\/ui(?=\/|$)/, '') || '/', { builtViews: BUILT_VIEWS, hasRoute });

// Rendered once the language is there (without it, the startup sequence shows its own error).
void initI18n()
  .catch(() => undefined)
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
