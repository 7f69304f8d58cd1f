import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { sql } from 'kysely';
import { ApiError } from '../../http/errors.ts';
import { checkLicence } from './licence.ts';
import { LICENCE_MSG, licenceState, trustedKeys, type LicenceState } from './licenceStore.ts';
import { shape } from '../../resource/describe.ts';

/** `GET /api/v1/xpack/license/detail` and `POST /api/v1/xpack/license/import` (multipart `file`). */

export function keysOf(req: FastifyRequest): string[] {
  const { config } = req.server.deps;
  return trustedKeys(config.dataDir, config.licensePublicKey);
}

export async function currentLicence(req: FastifyRequest): Promise<LicenceState> {
  return licenceState(req.server.deps.settings, keysOf(req));
}

async function assetCount(req: FastifyRequest): Promise<number> {
  const tables = await req.db.introspection.getTables();
  if (!tables.some((t) => t.name === 'assets_asset')) return 0;
  const r = await sql<{ n: number }>`SELECT count(*) AS n FROM assets_asset`.execute(req.db);
  return Number(r.rows[0]?.n ?? 0);
}

export async function registerLicenceRoutes(app: FastifyInstance): Promise<void> {
  await app.register(fastifyMultipart, { limits: { fileSize: 1024 * 1024, files: 1 } });

  app.get(
    '/api/v1/xpack/license/detail',
    {
      config: {
        perm: 'settings.view_setting | settings.change_license',
        describe: shape('licence', {
          is_valid: 'boolean',
          corporation: 'string',
          edition: 'string',
          date_expired: 'string',
          asset_count: 'integer',
          current_asset_count: 'integer',
          license_id: 'string',
          date_issued: 'string',
        }),
      },
    },
    async (req) => {
      const s = await currentLicence(req);
      const p = s.payload;
      return {
        is_valid: s.valid,
        corporation: p?.corporation ?? '',
        edition: p?.edition ?? '',
        date_expired: p?.expired ?? '',
        asset_count: p?.asset_count ?? 0,
        current_asset_count: await assetCount(req),
        license_id: p?.id ?? '',
        date_issued: p?.issued ?? '',
      };
    },
  );

  app.post('/api/v1/xpack/license/import', { config: { perm: 'settings.change_license' } }, async (req) => {
    const file = await req.file().catch(() => undefined);
    if (!file) throw new ApiError(400, { error: LICENCE_MSG.format[req.lang] });
    const text = (await file.toBuffer()).toString('utf8');
    const check = checkLicence(text, keysOf(req));
    if (!check.ok) throw new ApiError(400, { error: LICENCE_MSG[check.reason][req.lang] });
    await req.server.deps.settings.set('LICENSE', text.trim(), 'license');
    return { detail: 'ok', corporation: check.payload.corporation, date_expired: check.payload.expired };
  });
}
