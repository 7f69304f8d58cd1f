/** Addresses of the player pages and the replay download (server: modules/terminal/). */
const q = (org: unknown, extra: Record<string, string> = {}) => {
  const p = new URLSearchParams(extra);
  if (typeof org === 'string' && org) p.set('oid', org);
  const s = p.toString();
  return s ? `?${s}` : '';
};

export const replayUrl = (id: string, org?: unknown, at?: { ts: number }) =>
  `/luna/replay/${id}${q(org, at ? { ts: String(at.ts) } : {})}`;

export const monitorUrl = (id: string, org?: unknown) => `/luna/monitor/${id}${q(org)}`;

export const replayDownloadUrl = (id: string, org?: unknown) =>
  `/api/v1/terminal/sessions/${id}/replay/download/${q(org)}`;

export const ftpFileUrl = (id: string, org?: unknown) => `/api/v1/audits/ftp-logs/${id}/file/download/${q(org)}`;

/** Opens a player page in its own window, as the original console does (monitor 600x850). */
export function openPlayer(url: string, monitor = false): void {
  window.open(url, '_blank', monitor ? 'width=850,height=600' : undefined);
}
