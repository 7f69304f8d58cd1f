import { withQuery } from './resourceUrl.ts';
import type { Query } from './types.ts';

export type ExportScope = 'all' | 'selected' | 'filtered';
export type FileFormat = 'csv' | 'xlsx';

/** Which scopes can be chosen: all without a filter, selected with rows, filtered with a filter. */
export function exportScopes(hasFilter: boolean, selectedCount: number): Record<ExportScope, boolean> {
  return { all: !hasFilter, selected: selectedCount > 0, filtered: hasFilter };
}

/**
 * `GET <url>?<table query minus limit/offset>&format=<fmt>[&spm=]`. Selected rows
 * are named by their spm alone; "all" drops the search tags the table may still carry.
 */
export function exportHref(
  url: string,
  scope: ExportScope,
  format: FileFormat,
  q: { tableQuery: Query; searchKeys: readonly string[]; spm?: string },
): string {
  const query: Query = {};
  for (const [k, v] of Object.entries(q.tableQuery)) {
    if (k === 'limit' || k === 'offset') continue;
    if (scope !== 'filtered' && q.searchKeys.includes(k)) continue;
    query[k] = v;
  }
  if (scope === 'selected') {
    delete query.date_from;
    delete query.date_to;
    if (q.spm) query.spm = q.spm;
  }
  query.format = format;
  return withQuery(url, query);
}

/** Starts a download the way a link does (the browser sends the session and org cookies). */
export function download(href: string): void {
  const a = document.createElement('a');
  a.href = href;
  a.download = '';
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}
