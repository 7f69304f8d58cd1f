import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toBool, type Bool } from '../../../platform/db/schema.ts';
import { ApiError } from '../../../http/errors.ts';
import { findVisible } from '../../../resource/routes.ts';
import { tm } from '../gateway/gatewayError.ts';
import { ftpLogResource } from '../ftpLogResource.ts';
import { ftpFilePath } from '../../audits/ftpFiles.ts';

/**
 * `GET /api/v1/audits/ftp-logs/<id>/file/download/` (audits.view_ftplog): the kept copy of a
 * transferred file (fileKeeper.ts), streamed, for a row visible in the current org; 404 when the
 * row has no file.
 */
type IdReq = FastifyRequest<{ Params: { id: string } }>;

/** A header-safe file name: the last part of the logged path, quoted; the UTF-8 name as `filename*`. */
function disposition(filename: string): string {
  const base = path.posix.basename(filename.split(' => ').pop() ?? '') || 'file';
  const ascii = base.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(base)}`;
}

export function registerFtpFileRoutes(app: FastifyInstance): void {
  app.get(
    '/api/v1/audits/ftp-logs/:id/file/download/',
    { config: { perm: 'audits.view_ftplog' } },
    async (req: IdReq, reply: FastifyReply) => {
      const row = await findVisible(ftpLogResource, { req, db: req.db }, req.params.id);
      const file = ftpFilePath(req.server.deps.config.dataDir, String(row.id));
      if (!toBool(row.has_file as Bool) || !fs.existsSync(file))
        throw new ApiError(404, { error: tm(req.lang, 'ftp_file_not_found') });
      return reply
        .header('Content-Type', 'application/octet-stream')
        .header('Content-Disposition', disposition(String(row.filename)))
        .send(fs.createReadStream(file));
    },
  );
}
