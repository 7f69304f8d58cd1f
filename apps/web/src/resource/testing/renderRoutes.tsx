import { render } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { ALL_PERMISSIONS, DEFAULT_ORG_ID, type Profile } from '@gatehouse/contract';
import { useAppStore } from '../../lib/appStore.ts';
import * as resourcePages from '../resourcePages.tsx';
import { preloadResourcePages } from '../resourceRoute.tsx';

// Loaded with the test, not when a route first matches: the pages then render as soon as routed.
preloadResourcePages(resourcePages);

export interface RenderOptions {
  perms?: readonly string[];
  orgId?: string;
}

/** Mounts routes at an address with the app's providers and a signed-in user (all permissions by default). */
export function renderRoutes(routes: RouteObject[], at: string, opts: RenderOptions = {}) {
  useAppStore.setState({
    inited: true,
    perms: new Set(opts.perms ?? ALL_PERMISSIONS),
    currentOrg: { id: opts.orgId ?? DEFAULT_ORG_ID, name: 'DEFAULT', is_default: true, is_root: false },
    profile: { id: 'me', name: 'Admin', username: 'admin', is_superuser: true } as Profile,
    publicSettings: null,
  });
  const router = createMemoryRouter(routes, { initialEntries: [at] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <AntApp>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AntApp>,
  );
  return { ...view, router };
}
