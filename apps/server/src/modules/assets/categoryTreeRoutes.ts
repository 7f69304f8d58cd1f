import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROOT_ORG_ID, categoriesFor, translator } from '@gatehouse/contract';
import { requirePerm } from '../../http/permissions.ts';
import { toBool } from '../../platform/db/schema.ts';
import type { Row } from '../../resource/types.ts';
import { currentLicence } from '../xpack/licenceRoutes.ts';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type assetsMessages from '../../platform/i18n/locales/en/assets.json';
import { treeNodes } from '../../resource/describe.ts';
const M = catalogue<typeof assetsMessages>('assets');

/**
 * `GET /api/v1/assets/nodes/category/tree/`: without `key`, the type tree
 * ROOT → category → type → platform with asset counts of the current org; with
 * `key=<platform id>&assets=1`, that platform's assets as tree nodes.
 */
type Q = Record<string, string | undefined>;
const tr = translator({ root: M.root });
const yes = (v: string | undefined) => v === '1' || v === 'true';

function orgAssets(req: FastifyRequest) {
  const q = req.db.selectFrom('assets_asset');
  return req.org.id === ROOT_ORG_ID ? q : q.where('org_id', '=', req.org.id);
}

async function platformAssets(req: FastifyRequest, platformId: number): Promise<Row[]> {
  await requirePerm(req, 'assets.view_asset');
  const rows = await orgAssets(req)
    .select(['id', 'name', 'address', 'comment', 'is_active', 'type'])
    .where('platform_id', '=', platformId)
    .orderBy('name')
    .limit(1000)
    .execute();
  return rows.map((a) => ({
    id: a.id,
    name: a.name,
    title: `${a.address}\n${a.comment}`,
    pId: String(platformId),
    isParent: false,
    open: false,
    iconSkin: a.type || 'file',
    chkDisabled: !toBool(a.is_active),
    meta: { type: 'asset', data: { platform_type: a.type, name: a.name, address: a.address } },
  }));
}

async function typeTree(req: FastifyRequest, withAssets: boolean): Promise<Row[]> {
  const counts = new Map<number, number>();
  for (const r of await orgAssets(req)
    .select(['platform_id'])
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .groupBy('platform_id')
    .execute())
    counts.set(Number(r.platform_id), Number(r.n));
  const platforms = await req.db
    .selectFrom('assets_platform')
    .select(['id', 'name', 'category', 'type'])
    .orderBy('name')
    .execute();
  const out: Row[] = [
    {
      id: 'ROOT',
      name: tr(req.lang, 'root'),
      title: tr(req.lang, 'root'),
      open: true,
      isParent: true,
      meta: { type: 'root' },
    },
  ];
  for (const c of categoriesFor(req.lang, (await currentLicence(req)).valid)) {
    const catId = `ROOT_${c.value.toUpperCase()}`;
    const catPlatforms = platforms.filter((p) => p.category === c.value);
    const catCount = catPlatforms.reduce((n, p) => n + (counts.get(p.id) ?? 0), 0);
    out.push({
      id: catId,
      name: `${c.label}(${catCount})`,
      title: c.label,
      pId: 'ROOT',
      open: true,
      isParent: true,
      meta: { type: 'category', category: c.value, _type: c.value },
    });
    const typeValues =
      c.value === 'custom'
        ? [...new Set(catPlatforms.map((p) => p.type))].map((v) => ({ value: v, label: v }))
        : c.types;
    for (const t of typeValues) {
      const own = catPlatforms.filter((p) => p.type === t.value);
      const typeId = `${catId}_${t.value}`;
      const n = own.reduce((s, p) => s + (counts.get(p.id) ?? 0), 0);
      out.push({
        id: typeId,
        name: `${t.label}(${n})`,
        title: t.label,
        pId: catId,
        open: false,
        isParent: own.length > 0,
        meta: { type: 'type', category: c.value, _type: t.value },
      });
      for (const p of own) {
        const pn = counts.get(p.id) ?? 0;
        out.push({
          id: String(p.id),
          name: `${p.name}(${pn})`,
          title: p.name,
          pId: typeId,
          open: false,
          isParent: withAssets && pn > 0,
          meta: { type: 'platform' },
        });
      }
    }
  }
  return out;
}

export function registerCategoryTreeRoutes(app: FastifyInstance): void {
  app.get(
    '/api/v1/assets/nodes/category/tree/',
    { config: { perm: 'assets.view_node', describe: treeNodes } },
    async (req) => {
      const q = req.query as Q;
      const withAssets = yes(q.assets);
      if (q.key && withAssets && /^\d+$/.test(q.key)) return platformAssets(req, Number(q.key));
      return typeTree(req, withAssets);
    },
  );
}
