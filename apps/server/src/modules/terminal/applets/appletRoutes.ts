import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../http/errors.ts';
import { can } from '../../../http/permissions.ts';
import { queryFlag } from '../../../http/queryString.ts';
import { tr } from '../../../platform/i18n/catalogue.ts';
import { recordOperation } from '../../../resource/audit.ts';
import { findVisible, registerResource } from '../../../resource/routes.ts';
import { serializeOne } from '../../../resource/serialize.ts';
import { currentLicence } from '../../xpack/licenceRoutes.ts';
import { AM } from './appletMessages.ts';
import { APPLET_LIMITS, AppletPackageError, readAppletPackage, type AppletPackage } from './appletPackage.ts';
import { APPLETS_URL, appletResource } from './appletResource.ts';

/**
 * Applets' own routes beside the resource (appletResource.ts):
 * - `POST applets/upload/` (multipart `file`, `terminal.add_applet`): the zip is checked
 *   (appletPackage.ts) before anything is written; an applet of the same name is refused unless
 *   `?update=1`, which replaces it (keeping its id, switch and publications) and needs
 *   `terminal.change_applet` too. An enterprise applet needs a valid licence. Answers 201 and the applet.
 * - `GET applets/<id|name>/icon/` and `download/` (`terminal.view_applet`): the icon and the
 *   repacked package, as a host's agent downloads it.
 */
type IdReq = FastifyRequest<{ Params: { id: string } }>;

async function readFile(req: FastifyRequest): Promise<Buffer> {
  const lang = req.lang;
  if (!req.isMultipart()) throw new ApiError(400, { file: [tr(lang, AM.no_file)] });
  let data: Buffer | undefined;
  try {
    for await (const part of req.parts({ limits: { fileSize: APPLET_LIMITS.upload, files: 1, fields: 4 } })) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file' || data) {
        part.file.resume();
        continue;
      }
      data = await part.toBuffer();
    }
  } catch (e) {
    if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new ApiError(400, { file: [tr(lang, AM.upload_too_big, { max: APPLET_LIMITS.upload / 1024 / 1024 })] });
    throw new ApiError(400, { file: [tr(lang, AM.zip_broken)] });
  }
  if (!data) throw new ApiError(400, { file: [tr(lang, AM.no_file)] });
  return data;
}

async function save(req: FastifyRequest, pkg: AppletPackage, existing: { id: string } | undefined): Promise<string> {
  const m = pkg.manifest;
  const now = new Date().toISOString();
  const actor = req.user ? `${req.user.name}(${req.user.username})` : '';
  const values = {
    name: m.name,
    display_name: m.display_name,
    version: m.version,
    author: m.author,
    type: m.type,
    edition: m.edition,
    can_concurrent: m.can_concurrent,
    protocols: JSON.stringify(m.protocols),
    tags: JSON.stringify(m.tags),
    comment: m.comment,
    readme: pkg.readme,
    digest: pkg.digest,
    updated_by: actor,
    date_updated: now,
  };
  const files = { icon: pkg.icon.toString('base64'), package: pkg.zip.toString('base64') };
  const id = existing?.id ?? randomUUID();
  await req.db.transaction().execute(async (trx) => {
    if (existing) {
      await trx.updateTable('terminal_applet').set(values).where('id', '=', id).execute();
      await trx.updateTable('terminal_appletpackage').set(files).where('applet_id', '=', id).execute();
    } else {
      await trx
        .insertInto('terminal_applet')
        .values({ id, ...values, is_active: true, builtin: false, created_by: actor, date_created: now })
        .execute();
      await trx
        .insertInto('terminal_appletpackage')
        .values({ applet_id: id, ...files })
        .execute();
    }
    await recordOperation(trx, req, {
      action: existing ? 'update' : 'create',
      def: appletResource,
      resourceId: id,
      resourceName: m.name,
      orgId: undefined,
      diff: [{ field: 'version', before: '', after: m.version }],
    });
  });
  return id;
}

async function packageOf(req: IdReq) {
  const row = await findVisible(appletResource, { req, db: req.db }, req.params.id);
  const files = await req.db
    .selectFrom('terminal_appletpackage')
    .selectAll()
    .where('applet_id', '=', String(row.id))
    .executeTakeFirstOrThrow();
  return { row, files };
}

export function registerAppletRoutes(app: FastifyInstance): void {
  registerResource(app, appletResource);
  app.post(`${APPLETS_URL}upload/`, { config: { perm: 'terminal.add_applet' } }, async (req, reply) => {
    const lang = req.lang;
    const data = await readFile(req);
    let pkg: AppletPackage;
    try {
      pkg = await readAppletPackage(data, lang);
    } catch (e) {
      if (e instanceof AppletPackageError) throw new ApiError(400, { error: e.message });
      throw e;
    }
    if (pkg.manifest.edition === 'enterprise' && !(await currentLicence(req)).valid)
      throw new ApiError(400, { error: tr(lang, AM.enterprise) });
    const existing = await req.db
      .selectFrom('terminal_applet')
      .select(['id'])
      .where('name', '=', pkg.manifest.name)
      .executeTakeFirst();
    if (existing) {
      const update = queryFlag((req.query as { update?: string }).update);
      if (!update) throw new ApiError(400, { error: tr(lang, AM.exists, { name: pkg.manifest.name }), code: 'exists' });
      if (!(await can(req, 'terminal.change_applet'))) throw new ApiError(403, { detail: tr(lang, AM.update_perm) });
    }
    const id = await save(req, pkg, existing);
    const ctx = { req, db: req.db };
    const row = await findVisible(appletResource, ctx, id);
    return reply.code(201).send(await serializeOne(appletResource, ctx, row));
  });
  const send = (reply: FastifyReply, type: string, data: Buffer) =>
    reply
      .header('Content-Type', type)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .send(data);
  app.get(`${APPLETS_URL}:id/icon/`, { config: { perm: 'terminal.view_applet' } }, async (req: IdReq, reply) => {
    const { files } = await packageOf(req);
    return send(
      reply.header('Cache-Control', 'private, max-age=86400'),
      'image/png',
      Buffer.from(files.icon, 'base64'),
    );
  });
  app.get(`${APPLETS_URL}:id/download/`, { config: { perm: 'terminal.view_applet' } }, async (req: IdReq, reply) => {
    const { row, files } = await packageOf(req);
    return send(
      reply.header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(String(row.name))}.zip`),
      'application/zip',
      Buffer.from(files.package, 'base64'),
    );
  });
}
