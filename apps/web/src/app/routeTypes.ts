import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';

/** What a route tells the shell: its title key, menu icon, and the permissions its page needs. */
export interface RouteMeta {
  title: string;
  icon?: ReactNode;
  permissions?: string[];
  hidden?: boolean;
}

export type AppRoute = Omit<RouteObject, 'children' | 'handle'> & {
  handle?: RouteMeta;
  children?: AppRoute[];
};
