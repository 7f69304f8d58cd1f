import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  INTERFACE_IMAGE_MAX_BYTES,
  INTERFACE_IMAGES,
  INTERFACE_THEMES,
  PRIMARY_COLOR,
  type InterfaceImage,
  type InterfaceSettings,
} from '@gatehouse/contract';
import { ApiError } from '../../../http/errors.ts';
import { shape } from '../../../resource/describe.ts';
import { catalogue, tr } from '../../../platform/i18n/catalogue.ts';
import type interfaceMessages from '../../../platform/i18n/locales/en/interface.json';
import { currentLicence } from '../licenceRoutes.ts';
import { imageInfo } from './imageSize.ts';

/**
 * Settings › Interface (licensed; `settings.change_interface`): `GET|PUT xpack/interface/setting/`
 * (PUT multipart: `login_title`, `theme`, and image files `favicon`, `logo_index`, `logo_logout`,
 * `login_image`, each checked from its bytes for type and exact size before anything is saved),
 * `PUT setting/restore/` (the built-in ones back), `GET themes/`. The images are served publicly at
 * `xpack/interface/images/<name>/?v=<digest>` and the logos at `settings/logo/?size=small|large`;
 * `public/open/` names them (interfaceOpen), so the login page and the console follow at once.
 */
const M = catalogue<typeof interfaceMessages>('interface');
const BASE = '/api/v1/xpack/interface/';
const DEFAULTS: Record<InterfaceImage, string> = {
  favicon: '/ui/favicon.svg',
  logo_index: '/ui/logo-text.svg',
  logo_logout: '/ui/logo.svg',
  login_image: '',
};
const NAMES = Object.keys(INTERFACE_IMAGES) as InterfaceImage[];
const isImage = (n: string): n is InterfaceImage => (NAMES as string[]).includes(n);
const TITLE_MAX = 64;

async function images(req: FastifyRequest): Promise<Map<string, string>> {
  const rows = await req.db.selectFrom('xpack_interface_image').select(['name', 'digest']).execute();
  return new Map(rows.map((r) => [r.name, `${BASE}images/${r.name}/?v=${r.digest.slice(0, 16)}`]));
}

/** The INTERFACE block of the public settings: custom values while the licence is valid. */
export async function interfaceOpen(req: FastifyRequest): Promise<InterfaceSettings> {
  const s = req.server.deps.settings;
  const licensed = (await currentLicence(req)).valid;
  const custom = licensed ? await images(req) : new Map<string, string>();
  const theme = licensed ? String(await s.get('INTERFACE_THEME')) : 'classic_green';
  const primary = licensed ? String(await s.get('INTERFACE_PRIMARY_COLOR')) : PRIMARY_COLOR;
  return {
    logo_logout: custom.get('logo_logout') ?? DEFAULTS.logo_logout,
    logo_index: custom.get('logo_index') ?? DEFAULTS.logo_index,
    login_image: custom.get('login_image') ?? DEFAULTS.login_image,
    favicon: custom.get('favicon') ?? DEFAULTS.favicon,
    login_title: licensed ? String(await s.get('INTERFACE_LOGIN_TITLE')) : 'Gatehouse',
    theme,
    theme_info: { colors: { '--color-primary': primary } },
  };
}

interface Upload {
  title?: string;
  theme?: string;
  files: { name: InterfaceImage; type: string; data: Buffer }[];
}

/** Reads and checks the whole form; throws a 400 naming the field, nothing saved. */
async function readForm(req: FastifyRequest): Promise<Upload> {
  const lang = req.lang;
  const fail = (field: string, message: string) => new ApiError(400, { [field]: [message] });
  const out: Upload = { files: [] };
  const body = req.body as Record<string, unknown> | undefined;
  if (!req.isMultipart()) {
    // A JSON body may set the title and theme (no images).
    if (body && typeof body === 'object') {
      if (body.login_title !== undefined) out.title = String(body.login_title);
      if (body.theme !== undefined) out.theme = String(body.theme);
    }
  } else {
    const parts = req.parts({
      limits: { fileSize: INTERFACE_IMAGE_MAX_BYTES, files: NAMES.length, fields: 4, fieldSize: 1024 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldname === 'login_title') out.title = String(part.value);
        else if (part.fieldname === 'theme') out.theme = String(part.value);
        else if (!isImage(part.fieldname) || part.value !== '')
          throw fail(part.fieldname, tr(lang, M.unknown_part, { field: part.fieldname.slice(0, 32) }));
        continue;
      }
      const name = part.fieldname;
      if (!isImage(name)) {
        part.file.resume();
        throw fail(name, tr(lang, M.unknown_part, { field: name.slice(0, 32) }));
      }
      const data = await part.toBuffer().catch(() => undefined);
      if (!data || part.file.truncated)
        throw fail(name, tr(lang, M.image_bytes, { field: name, max: INTERFACE_IMAGE_MAX_BYTES / 1024 }));
      const info = imageInfo(data);
      if (!info) throw fail(name, tr(lang, M.image_type, { field: name }));
      const want = INTERFACE_IMAGES[name];
      if (info.width !== want.width || info.height !== want.height)
        throw fail(name, tr(lang, M.image_size, { field: name, ...want, actual: `${info.width}×${info.height}` }));
      out.files.push({ name, type: info.type, data });
    }
  }
  if (out.title !== undefined && (out.title.trim().length === 0 || out.title.length > TITLE_MAX))
    throw fail('login_title', tr(lang, M.title_length));
  if (out.theme !== undefined && !INTERFACE_THEMES.some((x) => x.name === out.theme))
    throw fail('theme', tr(lang, M.theme_invalid, { value: out.theme.slice(0, 32) }));
  return out;
}

async function current(req: FastifyRequest) {
  const s = req.server.deps.settings;
  const custom = await images(req);
  return {
    login_title: String(await s.get('INTERFACE_LOGIN_TITLE')),
    theme: String(await s.get('INTERFACE_THEME')),
    ...Object.fromEntries(NAMES.map((n) => [n, custom.get(n) ?? DEFAULTS[n]])),
  };
}

async function requireLicence(req: FastifyRequest): Promise<void> {
  if (!(await currentLicence(req)).valid) throw new ApiError(403, { error: tr(req.lang, M.license_required) });
}

async function serveImage(req: FastifyRequest, reply: FastifyReply, name: string) {
  const row = await req.db.selectFrom('xpack_interface_image').selectAll().where('name', '=', name).executeTakeFirst();
  if (!row) return undefined;
  return reply
    .header('Content-Type', row.content_type)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', "default-src 'none'; sandbox")
    .header('Cache-Control', 'public, max-age=86400')
    .send(Buffer.from(row.data, 'base64'));
}

export function registerInterfaceRoutes(app: FastifyInstance): void {
  const perm = 'settings.change_interface';
  const described = shape('interface', {
    login_title: 'string',
    theme: 'string',
    favicon: 'string',
    logo_index: 'string',
    logo_logout: 'string',
    login_image: 'string',
  });
  app.get(`${BASE}setting/`, { config: { perm, describe: described } }, current);
  app.put(`${BASE}setting/`, { config: { perm } }, async (req) => {
    await requireLicence(req);
    const form = await readForm(req);
    const now = new Date().toISOString();
    await req.db.transaction().execute(async (trx) => {
      for (const f of form.files) {
        const row = {
          content_type: f.type,
          data: f.data.toString('base64'),
          digest: createHash('sha256').update(f.data).digest('hex'),
          date_updated: now,
        };
        await trx.deleteFrom('xpack_interface_image').where('name', '=', f.name).execute();
        await trx
          .insertInto('xpack_interface_image')
          .values({ name: f.name, ...row })
          .execute();
      }
    });
    const values: Record<string, unknown> = {};
    if (form.title !== undefined) values.INTERFACE_LOGIN_TITLE = form.title.trim();
    if (form.theme !== undefined) {
      values.INTERFACE_THEME = form.theme;
      values.INTERFACE_PRIMARY_COLOR = INTERFACE_THEMES.find((x) => x.name === form.theme)!.primary;
    }
    if (Object.keys(values).length) await req.server.deps.settings.setMany(values, 'interface');
    return current(req);
  });
  app.put(`${BASE}setting/restore/`, { config: { perm } }, async (req) => {
    await requireLicence(req);
    await req.db.deleteFrom('xpack_interface_image').execute();
    await req.server.deps.settings.setMany(
      { INTERFACE_LOGIN_TITLE: 'Gatehouse', INTERFACE_THEME: 'classic_green', INTERFACE_PRIMARY_COLOR: PRIMARY_COLOR },
      'interface',
    );
    return current(req);
  });
  app.get(
    `${BASE}themes/`,
    { config: { perm, describe: shape('interface', { name: 'string', title: 'string', colors: 'json' }) } },
    async () =>
      INTERFACE_THEMES.map((x) => ({ name: x.name, title: x.name, colors: { '--color-primary': x.primary } })),
  );
  app.get(`${BASE}images/:name/`, { config: { public: true } }, async (req, reply) => {
    const { name } = req.params as { name: string };
    const sent = isImage(name) ? await serveImage(req, reply, name) : undefined;
    if (!sent) return reply.code(404).send({ detail: 'Not found.' });
    return sent;
  });
  app.get('/api/v1/settings/logo/', { config: { public: true } }, async (req, reply) => {
    const name = (req.query as { size?: string }).size === 'large' ? 'logo_index' : 'logo_logout';
    const sent = (await currentLicence(req)).valid ? await serveImage(req, reply, name) : undefined;
    return sent ?? reply.redirect(DEFAULTS[name]);
  });
}
