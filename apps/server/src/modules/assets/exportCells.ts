import type { ResourceCtx, Row } from '../../resource/types.ts';

/**
 * Spreadsheet form of an asset's protocols: `ssh/22,sftp/22`, the form
 * the import reads back, instead of JSON. Applies only to CSV/XLSX exports.
 */
export function protocolsForExport(rows: Row[], ctx: ResourceCtx): void {
  const format = (ctx.req.query as Record<string, unknown> | undefined)?.format;
  if (format !== 'csv' && format !== 'xlsx') return;
  for (const r of rows) {
    if (Array.isArray(r.protocols))
      r.protocols = (r.protocols as { name: string; port: number }[]).map((p) => `${p.name}/${p.port}`).join(',');
  }
}
