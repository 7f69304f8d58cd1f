import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { findVisible } from '../../resource/routes.ts';
import type { Row } from '../../resource/types.ts';
import { tm } from './gateway/gatewayError.ts';
import { sessionResource } from './sessionResource.ts';
import { tarOf } from './tar.ts';

/**
 * Replays of finished sessions (the session must be visible in the current org):
 * `sessions/<id>/replay/` answers where the asciicast is (the contract's answer, at once: the
 * file is local, nothing to convert), `replay/file/` the `.cast.gz` itself and `replay/download/`
 * a tar of the recording and `<id>.json` with the session's facts.
 */
type IdReq = FastifyRequest<{ Params: { id: string } }>;

async function replayOf(req: IdReq): Promise<{ row: Row; file: string }> {
  const row = await findVisible(sessionResource, { req, db: req.db }, req.params.id);
  const rel = String(row.replay_path ?? '');
  const dataDir = req.server.deps.config.dataDir;
  const file = rel.endsWith('.gz') ? path.resolve(dataDir, rel) : '';
  if (!file || !file.startsWith(path.resolve(dataDir) + path.sep) || !fs.existsSync(file))
    throw new ApiError(404, { error: tm(req.lang, 'replay_not_found') });
  return { row, file };
}

function meta(row: Row) {
  return {
    id: row.id,
    user: row.user,
    asset: row.asset,
    account: row.account,
    protocol: row.protocol,
    login_from: row.login_from,
    remote_addr: row.remote_addr,
    date_start: row.date_start,
    date_end: row.date_end,
    org_id: row.org_id,
  };
}

export function registerReplayRoutes(app: FastifyInstance): void {
  const base = '/api/v1/terminal/sessions/:id/replay/';
  app.get(base, { config: { perm: 'terminal.view_sessionreplay' } }, async (req: IdReq) => {
    const { row } = await replayOf(req);
    const url = `/api/v1/terminal/sessions/${String(row.id)}/replay/`;
    return {
      type: 'asciicast',
      src: `${url}file/`,
      ...meta(row),
      download_url: `${url}download/`,
    };
  });
  app.get(
    `${base}file/`,
    { config: { perm: 'terminal.view_sessionreplay' } },
    async (req: IdReq, reply: FastifyReply) => {
      const { row, file } = await replayOf(req);
      return reply
        .header('Content-Type', 'application/gzip')
        .header('Content-Disposition', `attachment; filename="${String(row.id)}.cast.gz"`)
        .send(fs.createReadStream(file));
    },
  );
  app.get(
    `${base}download/`,
    { config: { perm: 'terminal.download_sessionreplay' } },
    async (req: IdReq, reply: FastifyReply) => {
      const { row, file } = await replayOf(req);
      const id = String(row.id);
      const tar = tarOf([
        { name: `${id}.cast.gz`, data: fs.readFileSync(file) },
        { name: `${id}.json`, data: Buffer.from(JSON.stringify(meta(row), null, 2)) },
      ]);
      return reply
        .header('Content-Type', 'application/x-tar')
        .header('Content-Disposition', `attachment; filename="${id}.tar"`)
        .send(tar);
    },
  );
}
