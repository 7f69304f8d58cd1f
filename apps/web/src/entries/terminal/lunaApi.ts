import { http } from '../../lib/http.ts';
import type { ConnectMethod, PermedAccount, TokenBody } from './connectChoice.ts';

/** The calls the web terminal page makes (the signed-in user's own grants, preferences and tokens). */
const SELF = '/api/v1/perms/users/self';

/** One item of the granted tree (zTree JSON): a node (`meta.type` node) or an asset. */
export interface TreeItem {
  id: string;
  name: string;
  title?: string;
  pId?: string;
  isParent?: boolean;
  chkDisabled?: boolean;
  meta?: {
    type?: string;
    data?: {
      id?: string;
      key?: string;
      address?: string;
      platform_type?: string;
      org_name?: string;
      /** Kubernetes tree (`meta.type` k8s): what the node is and where. */
      identity?: string;
      namespace?: string;
      pod?: string;
      container?: string;
    };
  };
}

/** A sharing of one's own running session (server: modules/terminal/sharing/). */
export interface Sharing {
  id: string;
  verify_code: string;
  url: string;
  is_active: boolean;
  expired_time: number;
  date_created: string;
  action_permission: { value: 'readonly' | 'writable'; label: string };
  users_display: string;
}
export interface SharingBody {
  session: string;
  expired_time: number;
  action_permission: 'readonly' | 'writable';
  users: string[];
}
const SHARINGS = '/api/v1/terminal/session-sharings/';

export const lunaApi = {
  treeLevel: (key?: string) =>
    http.get<TreeItem[]>(`${SELF}/nodes/children-with-assets/tree/`, { params: key ? { key } : {} }),
  searchAssets: (search: string) => http.get<TreeItem[]>(`${SELF}/assets/tree/`, { params: { search } }),
  /** A granted asset's name (a deep link names the asset by id only); undefined when not granted. */
  assetName: (id: string) =>
    http.get<TreeItem[]>(`${SELF}/assets/tree/`, { params: { id } }).then((items) => items[0]?.name),
  /** A granted asset as a tree item (its platform type decides how a deep link opens it). */
  assetItem: (id: string) => http.get<TreeItem[]>(`${SELF}/assets/tree/`, { params: { id } }).then((items) => items[0]),
  /** A granted asset's protocols (the connect dialog offers those the page opens). */
  assetProtocols: (id: string) =>
    http
      .get<{ protocols?: { name: string; port: number }[] }[]>(`${SELF}/assets/`, { params: { id } })
      .then((items) => items[0]?.protocols ?? []),
  accounts: (assetId: string) => http.get<PermedAccount[]>(`${SELF}/assets/${assetId}/accounts/`),
  connectMethods: (protocol: string) =>
    http
      .get<Record<string, ConnectMethod[]>>('/api/v1/terminal/components/connect-methods/')
      .then((all) => all[protocol] ?? []),
  preferences: () => http.get<unknown>('/api/v1/users/preference/', { params: { category: 'luna' } }),
  createToken: (body: TokenBody) => http.post<{ id: string }>('/api/v1/authentication/connection-token/', body),
  sharingEnabled: () =>
    http
      .get<{ SECURITY_SESSION_SHARE?: boolean }>('/api/v1/settings/public/')
      .then((s) => s.SECURITY_SESSION_SHARE !== false),
  shareCandidates: (session: string, search: string) =>
    http.get<{ id: string; name: string; username: string }[]>(`${SHARINGS}users/`, { params: { session, search } }),
  createSharing: (body: SharingBody) => http.post<Sharing>(SHARINGS, body),
  stopSharing: (id: string) => http.patch<Sharing>(`${SHARINGS}${id}/`, { is_active: false }),
  /** A fresh token like one of the caller's live ones (a k8s container's tab spends its own). */
  exchangeToken: (id: string) => http.post<{ id: string }>('/api/v1/authentication/connection-token/exchange/', { id }),
  /** One level of a Kubernetes asset's tree, read from the cluster with a live k8s token. */
  k8sTree: (token: string, key: string) =>
    http.get<TreeItem[]>(`${SELF}/nodes/children-with-k8s/tree/`, { params: { token, key } }),
};
