import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { findVisible } from '../../resource/routes.ts';
import type { Row } from '../../resource/types.ts';
import { tm } from './gateway/gatewayError.ts';
import { sessionResource } from './sessionResource.ts';
import { tarOf } from './tar.ts';
import { shape } from '../../resource/describe.ts';
import { openReplay } from './storage/replayStorages.ts';

/**
 * Replays of finished sessions (the session must be visible in the current org):
 * `sessions/<id>/replay/` answers where the asciicast is (the contract's answer, at once: the
 * file is ready, nothing to convert), `replay/file/` the `.cast.gz` itself (from the data directory
 * or the object store that holds it: storage/replayStorages.ts) and `replay/download/`
 * a tar of the recording and `<id>.json` with the session's facts.
 */
type IdReq = FastifyRequest<{ Params: { id: string } }>;

/** The session and its recording, opened (so a missing one is a 404 before any header is sent). */
async function replayOf(req: IdReq): Promise<{ row: Row; stream: Readable }> {
  const row = await findVisible(sessionResource, { req, db: req.db }, req.params.id);
  const deps = { db: req.db, secretBox: req.server.deps.secretBox, dataDir: req.server.deps.config.dataDir };
  const stream = await openReplay(deps, row as { replay_path: unknown }).catch(() => undefined);
  if (!stream) throw new ApiError(404, { error: tm(req.lang, 'replay_not_found') });
  return { row, stream };
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(parts);
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
  const describe = shape('replay', {
    type: 'string',
    src: 'string',
    id: 'string',
    user: 'string',
    asset: 'string',
    account: 'string',
    protocol: 'string',
    login_from: 'string',
    remote_addr: 'string',
    date_start: 'datetime',
    date_end: 'datetime',
    download_url: 'string',
  });
  app.get(base, { config: { perm: 'terminal.view_sessionreplay', describe } }, async (req: IdReq) => {
    const { row, stream } = await replayOf(req);
    stream.destroy();
    const url = `/api/v1/terminal/sessions/${String(row.id)}/replay/`;
    return {
      // A graphical session's recording is the RFB stream (graphical/): the player replays it with noVNC.
      type: row.protocol === 'vnc' || row.protocol === 'rdp' ? 'rfb' : 'asciicast',
      src: `${url}file/`,
      ...meta(row),
      download_url: `${url}download/`,
    };
  });
  app.get(
    `${base}file/`,
    { config: { perm: 'terminal.view_sessionreplay' } },
    async (req: IdReq, reply: FastifyReply) => {
      const { row, stream } = await replayOf(req);
      return reply
        .header('Content-Type', 'application/gzip')
        .header('Content-Disposition', `attachment; filename="${String(row.id)}.cast.gz"`)
        .send(stream);
    },
  );
  app.get(
    `${base}download/`,
    { config: { perm: 'terminal.download_sessionreplay' } },
    async (req: IdReq, reply: FastifyReply) => {
      const { row, stream } = await replayOf(req);
      const id = String(row.id);
      const tar = tarOf([
        { name: `${id}.cast.gz`, data: await bytesOf(stream) },
        { name: `${id}.json`, data: Buffer.from(JSON.stringify(meta(row), null, 2)) },
      ]);
      return reply
        .header('Content-Type', 'application/x-tar')
        .header('Content-Disposition', `attachment; filename="${id}.tar"`)
        .send(tar);
    },
  );
}
