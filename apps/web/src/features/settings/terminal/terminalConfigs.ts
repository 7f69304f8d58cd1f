import type { ResourceRouteConfig } from '../../../resource/resourceRoute.tsx';

/**
 * The terminal settings' resources, edited from tabs of `/settings/terminal`: their create,
 * update and detail pages are `/settings/terminal/<resource>/…` (the console reference's paths),
 * their list address goes back to the tab.
 */
export const TERMINAL_SETTINGS = '/settings/terminal';

export const replayStorageRoute: ResourceRouteConfig = {
  path: 'terminal/replay-storage',
  url: '/api/v1/terminal/replay-storages/',
  routeName: 'ReplayStorage',
  titles: {
    list: 'settingsTerminal.route.replayStorage',
    create: 'settingsTerminal.route.replayStorageCreate',
    update: 'settingsTerminal.route.replayStorageUpdate',
    detail: 'settingsTerminal.route.replayStorageDetail',
  },
  kind: 'settingsTerminal.kind.replayStorage',
  disableOrgsChange: true,
};

export const commandStorageRoute: ResourceRouteConfig = {
  path: 'terminal/command-storage',
  url: '/api/v1/terminal/command-storages/',
  routeName: 'CommandStorage',
  titles: {
    list: 'settingsTerminal.route.commandStorage',
    create: 'settingsTerminal.route.commandStorageCreate',
    update: 'settingsTerminal.route.commandStorageUpdate',
    detail: 'settingsTerminal.route.commandStorageDetail',
  },
  kind: 'settingsTerminal.kind.commandStorage',
  disableOrgsChange: true,
};

export const endpointRoute: ResourceRouteConfig = {
  path: 'terminal/endpoint',
  url: '/api/v1/terminal/endpoints/',
  routeName: 'Endpoint',
  titles: {
    list: 'settingsTerminal.route.endpoint',
    create: 'settingsTerminal.route.endpointCreate',
    update: 'settingsTerminal.route.endpointUpdate',
    detail: 'settingsTerminal.route.endpointDetail',
  },
  kind: 'settingsTerminal.kind.endpoint',
  disableOrgsChange: true,
};

export const endpointRuleRoute: ResourceRouteConfig = {
  path: 'terminal/endpoint-rule',
  url: '/api/v1/terminal/endpoint-rules/',
  routeName: 'EndpointRule',
  titles: {
    list: 'settingsTerminal.route.endpointRule',
    create: 'settingsTerminal.route.endpointRuleCreate',
    update: 'settingsTerminal.route.endpointRuleUpdate',
    detail: 'settingsTerminal.route.endpointRuleDetail',
  },
  kind: 'settingsTerminal.kind.endpointRule',
  disableOrgsChange: true,
};
