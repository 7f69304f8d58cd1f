import { urlPath, withQuery } from './resourceUrl.ts';
import type { FileFormat } from './exportUrl.ts';

export type ImportMode = 'create' | 'update';

export const MAX_IMPORT_BYTES = 30 * 1024 * 1024;

/** The file's format when it is one .csv or .xlsx of at most 30 MB, else null. */
export function importFormat(file: { name: string; size: number }): FileFormat | null {
  const m = /\.(csv|xlsx)$/i.exec(file.name);
  if (!m || file.size > MAX_IMPORT_BYTES) return null;
  return m[1]!.toLowerCase() as FileFormat;
}

/** `GET <url>?format=&template=import|update` plus `limit=1`, or the selected rows' spm for updates. */
export function templateHref(url: string, mode: ImportMode, format: FileFormat, spm?: string): string {
  const query: Record<string, string> = { format, template: mode === 'create' ? 'import' : 'update' };
  if (mode === 'update' && spm) query.spm = spm;
  else query.limit = '1';
  return withQuery(url, query);
}

/** `<collection path>render-to-json/`, which parses an uploaded file into rows. */
export function renderToJsonUrl(url: string): string {
  const path = urlPath(url);
  return `${path.endsWith('/') ? path : `${path}/`}render-to-json/`;
}

/** The content type the server's parsers expect. */
export function importContentType(format: FileFormat): string {
  return format === 'csv' ? 'text/csv' : 'text/xlsx';
}

/** How secret-like columns are shown in the review table. */
export const MASK = '******';
