import { csrfToken, http } from '../../lib/http.ts';
import { CSRF_HEADER } from '@gatehouse/contract';

/** The file manager's server API (modules/terminal/sftp/webSftpRoutes.ts), on one server-side SFTP session. */
export const API = '/koko/elfinder/sftp/api/';

export interface Opened {
  id: string;
  asset: { id: string; name: string };
  account: { id: string; name: string; username: string };
  actions: string[];
  home: string;
}

export interface Entry {
  name: string;
  size: number;
  mtime: number;
  type: 'dir' | 'file' | 'link';
}

export interface PermedAccount {
  id: string;
  alias: string;
  name: string;
  username: string;
}

/** A granted asset as the picker lists it (`perms/users/self/assets/`). */
export interface GrantedAsset {
  id: string;
  name: string;
  address: string;
  platform: { id: number; name: string } | null;
  protocols: { name: string; port: number }[];
  comment: string;
}

/** Protocols a file manager session can use: SFTP runs over SSH when an asset lists no SFTP of its own. */
export const SFTP_PROTOCOLS = 'sftp,ssh';

/** The server's `detail`, else the error's message. */
export function errorText(e: unknown): string {
  const data = (e as { data?: { detail?: string } }).data;
  return data?.detail ?? (e as Error).message;
}

export const join = (dir: string, name: string) => `${dir.replace(/\/$/, '')}/${name}`;

export const sftpApi = {
  /** The user's granted active assets the file manager can open, a page at a time. */
  assets: (params: { search?: string; offset: number; limit: number }) =>
    http.get<{ count: number; results: GrantedAsset[] }>('/api/v1/perms/users/self/assets/', {
      params: { protocols: SFTP_PROTOCOLS, is_active: 'true', order: 'name', ...params },
    }),
  accounts: (assetId: string) =>
    http.get<PermedAccount[]>(`/api/v1/perms/users/self/assets/${encodeURIComponent(assetId)}/accounts/`),
  token: (assetId: string, account: string) =>
    http.post<{ id: string }>('/api/v1/authentication/connection-token/', {
      asset: assetId,
      account,
      protocol: 'sftp',
      connect_method: 'web_sftp',
    }),
  open: (token: string) => http.post<Opened>(`${API}open/`, { token }),
  list: (id: string, path: string) =>
    http.get<{ path: string; entries: Entry[] }>(`${API}${id}/list/`, { params: { path } }),
  mkdir: (id: string, path: string) => http.post(`${API}${id}/mkdir/`, { path }),
  rename: (id: string, from: string, to: string) => http.post(`${API}${id}/rename/`, { from, to }),
  remove: (id: string, path: string) => http.post(`${API}${id}/delete/`, { path }),
  /** When the page goes away: `keepalive` lets the request outlive the page and still carry the CSRF header. */
  close: (id: string) =>
    void fetch(`${API}${id}/close/`, {
      method: 'POST',
      keepalive: true,
      headers: { 'Content-Type': 'application/json', [CSRF_HEADER]: csrfToken() ?? '' },
      body: '{}',
    }).catch(() => undefined),
  downloadUrl: (id: string, path: string) => `${API}${id}/download/?path=${encodeURIComponent(path)}`,
  /** Multipart upload with progress (XMLHttpRequest: fetch reports no upload progress). */
  upload(id: string, dir: string, file: File, onProgress: (percent: number) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${API}${id}/upload/?path=${encodeURIComponent(dir)}`);
      const csrf = csrfToken();
      if (csrf) xhr.setRequestHeader(CSRF_HEADER, csrf);
      xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100));
      xhr.onload = () => {
        if (xhr.status < 300) return resolve();
        let detail = xhr.statusText;
        try {
          detail = (JSON.parse(xhr.responseText) as { detail?: string }).detail ?? detail;
        } catch {
          /* not JSON */
        }
        reject(new Error(detail));
      };
      xhr.onerror = () => reject(new Error('network error'));
      const form = new FormData();
      form.append('file', file, file.name);
      xhr.send(form);
    });
  },
};
