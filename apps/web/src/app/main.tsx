import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { matchRoutes } from 'react-router';
import { initI18n } from '../lib/i18n/index.ts';
import { preloadMatched } from '../lib/lazyPage.tsx';
import { ROUTES } from './routes.tsx';
import './global.css';

initI18n();
// The page's chunks load while the startup sequence runs.
preloadMatched(matchRoutes(ROUTES as never, window.location.pathname, '/ui'));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
