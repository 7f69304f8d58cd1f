import type { TFunction } from 'i18next';
import { HttpError } from '../lib/http.ts';

function joinMessages(v: unknown, sep: string): string {
  if (Array.isArray(v))
    return v
      .map((x) => joinMessages(x, sep))
      .filter(Boolean)
      .join(sep);
  if (v && typeof v === 'object')
    return Object.values(v)
      .map((x) => joinMessages(x, sep))
      .filter(Boolean)
      .join(sep);
  return v === undefined || v === null ? '' : String(v);
}

/** The message a server body carries: `error`, `msg` or `detail`; `non_field_errors` joined with spaces. */
export function serverDetail(err: unknown): string {
  if (!(err instanceof HttpError)) return '';
  const data = err.data;
  if (typeof data === 'string') return data.length < 300 && !data.trimStart().startsWith('<') ? data : '';
  if (!data || typeof data !== 'object') return '';
  const body = data as Record<string, unknown>;
  for (const key of ['error', 'msg', 'detail']) if (body[key]) return joinMessages(body[key], '; ');
  if (body.non_field_errors) return joinMessages(body.non_field_errors, ' ');
  if (Array.isArray(data)) return joinMessages(data, '; ');
  return '';
}

/** What to tell a person about a failed call. */
export function errorMessage(err: unknown, t: TFunction): string {
  if (err instanceof HttpError) {
    if (err.status === 400) return serverDetail(err) || t('resource.error.badRequest');
    if (err.status === 403) return t('resource.error.forbidden');
    if (err.status === 409) return t('resource.error.conflict');
    if (err.status >= 500) return t('resource.error.server');
    return serverDetail(err) || err.message;
  }
  return err instanceof Error ? err.message : String(err);
}
