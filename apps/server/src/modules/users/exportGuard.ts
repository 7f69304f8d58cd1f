import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireConfirm } from '../authentication/confirm.ts';
import { userResource } from './userResource.ts';

/**
 * Exporting users (`GET /api/v1/users/users/?format=csv|xlsx`) asks for a re-verification at the
 * password level (MFA for users who have it, the JumpServer API) when the stored security setting
 * `SECURITY_EXPORT_NEED_CONFIRM` is true (off by default; SECURITY_VIEW_AUTH_NEED_MFA false turns
 * every confirmation off). The console then opens its dialog and retries the export.
 */
export const EXPORT_CONFIRM_SETTING = 'SECURITY_EXPORT_NEED_CONFIRM';

function isUserExport(req: FastifyRequest): boolean {
  if (req.method !== 'GET') return false;
  const [path, search = ''] = req.url.split('?');
  if (path !== userResource.url) return false;
  const format = new URLSearchParams(search).get('format');
  return format === 'csv' || format === 'xlsx';
}

export function registerExportGuard(app: FastifyInstance): void {
  app.addHook('preHandler', async (req) => {
    if (!isUserExport(req) || !req.user) return;
    if ((await req.server.deps.settings.getRaw<boolean>(EXPORT_CONFIRM_SETTING)) !== true) return;
    await requireConfirm(req, 'password');
  });
}
