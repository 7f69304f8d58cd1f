import { describe, expect, it } from 'vitest';
import { flattenRoutes, pathOfRouteName, prepareRoutes, routerRoutes } from './routeRegistry.ts';
import type { AppRoute } from '../lib/routeTypes.ts';

const audit: AppRoute = {
  path: 'audit',
  handle: { title: 'route.Audit', showOrganization: true },
  children: [
    {
      path: 'sessions',
      handle: { title: 'route.Sessions', app: 'terminal' },
      children: [
        {
          path: 'sessions',
          handle: { title: 'route.SessionList' },
          children: [
            { index: true, handle: { title: 'route.SessionList', name: 'SessionList' } },
            { path: ':id', handle: { title: 'route.SessionDetail', name: 'SessionDetail' } },
          ],
        },
      ],
    },
  ],
};

const routes = prepareRoutes([audit]);
const byName = (name: string) => flattenRoutes(routes).find((r) => r.handle.name === name)!.handle;

describe('preparing routes', () => {
  it('derives each route’s full path, type and permission from where it is mounted', () => {
    expect(byName('SessionList').resolved).toMatchObject({
      fullPath: '/audit/sessions/sessions',
      type: 'resource',
      action: 'list',
      permissions: ['terminal.view_session'],
    });
    expect(byName('SessionDetail').resolved).toMatchObject({
      fullPath: '/audit/sessions/sessions/:id',
      type: 'crud',
      action: 'retrieve',
      activeMenu: '/audit/sessions/sessions',
    });
  });

  it('keeps what a route states and passes the organisation flags down', () => {
    expect(byName('SessionDetail').title).toBe('route.SessionDetail');
    expect(byName('SessionDetail').resolved.showOrganization).toBe(true);
    expect(routes[0]!.handle.resolved.permissions).toEqual([]);
  });
});

describe('named routes', () => {
  it('give the path of a built route with its parameters, and nothing for a route that is not built', () => {
    expect(pathOfRouteName(routes, 'SessionDetail', { id: '42' })).toBe('/audit/sessions/sessions/42');
    expect(pathOfRouteName(routes, 'SessionDetail', {})).toBeUndefined();
    expect(pathOfRouteName(routes, 'TicketDetail', { id: '42' })).toBeUndefined();
  });
});

describe('router routes', () => {
  it('leave out the external menu entries at any depth and keep everything else', () => {
    const prepared = prepareRoutes([
      {
        path: 'workbench',
        handle: { title: 'route.Workbench' },
        children: [
          { path: 'home', handle: { title: 'workbench.route.home' } },
          { path: 'web-terminal', handle: { title: 'workbench.route.webTerminal', externalUrl: '/luna/' } },
        ],
      },
    ]);
    const paths = (routes: ReturnType<typeof prepareRoutes>) => flattenRoutes(routes).map((r) => r.path);
    expect(paths(routerRoutes(prepared))).toEqual(['workbench', 'home']);
    expect(paths(prepared)).toEqual(['workbench', 'home', 'web-terminal']);
  });
});
