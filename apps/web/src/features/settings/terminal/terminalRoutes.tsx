import type { AppRoute } from '../../../lib/routeTypes.ts';
import { offMenuRoute, resourceRoute } from '../../../resource/resourceRoute.tsx';
import {
  TERMINAL_SETTINGS,
  commandStorageRoute,
  endpointRoute,
  endpointRuleRoute,
  replayStorageRoute,
} from './terminalConfigs.ts';

/** The terminal settings' resource routes (configs: terminalConfigs.ts), their lists in the terminal page's tabs. */
const pages = () => import('./terminalPages.tsx');

export const terminalResourceRoutes: AppRoute[] = [
  offMenuRoute(
    resourceRoute(replayStorageRoute, () => pages().then((m) => m.replayStoragePages)),
    `${TERMINAL_SETTINGS}?activeTab=replay`,
  ),
  offMenuRoute(
    resourceRoute(commandStorageRoute, () => pages().then((m) => m.commandStoragePages)),
    `${TERMINAL_SETTINGS}?activeTab=command`,
  ),
  offMenuRoute(
    resourceRoute(endpointRoute, () => pages().then((m) => m.endpointPages)),
    `${TERMINAL_SETTINGS}?activeTab=endpoints`,
  ),
  offMenuRoute(
    resourceRoute(endpointRuleRoute, () => pages().then((m) => m.endpointRulePages)),
    `${TERMINAL_SETTINGS}?activeTab=endpointRules`,
  ),
];
