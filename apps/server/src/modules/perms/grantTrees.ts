import type { FastifyRequest } from 'fastify';
import { categoriesFor } from '@gatehouse/contract';
import { toBool } from '../../platform/db/schema.ts';
import type { Row } from '../../resource/types.ts';
import { currentLicence } from '../xpack/licenceRoutes.ts';
import type { GrantedNode } from './grants.ts';
import { pm } from './permMessages.ts';

/** The tree-node shapes of the granted trees (the console's zTree), and the category tree. */

export function nodeTreeJson(n: GrantedNode, open = false): Row {
  const name = `${n.value} (${n.granted_amount})`;
  return {
    id: n.key,
    name,
    title: n.value,
    pId: n.parent_key,
    isParent: true,
    open,
    meta: { type: 'node', data: { id: n.id, key: n.key, value: n.value, assets_amount: n.granted_amount } },
  };
}

export function specialNodeJson(req: FastifyRequest, key: 'favorite' | 'ungrouped', amount: number): Row {
  const value = pm(req.lang, key);
  return {
    id: key,
    name: `${value} (${amount})`,
    title: value,
    pId: '',
    isParent: amount > 0,
    open: false,
    meta: { type: 'node', data: { id: key, key, value, assets_amount: amount } },
  };
}

export function nodePermedJson(n: GrantedNode): Row {
  return { id: n.id, name: n.value, key: n.key, value: n.value, org_id: n.org_id, assets_amount: n.granted_amount };
}

export interface TreeAsset {
  id: string;
  name: string;
  address: string;
  comment: string;
  is_active: unknown;
  type: string;
  category: string;
  org_id: string;
  platform_id: number;
}

export function assetTreeJson(a: TreeAsset, pId: string, orgNames: Map<string, string>): Row {
  return {
    id: a.id,
    name: a.name,
    title: `${a.address}\n${a.comment}`,
    pId,
    isParent: false,
    open: false,
    iconSkin: a.type || 'file',
    chkDisabled: !toBool(a.is_active as number),
    meta: {
      type: 'asset',
      data: {
        platform_type: a.type,
        org_name: orgNames.get(a.org_id) ?? '',
        name: a.name,
        address: a.address,
      },
    },
  };
}

/**
 * ROOT → category → type with the counts of granted assets (`counts` by `category/type`); zero
 * counts are dropped and there are no platform nodes. A type node's `meta._type` is its type.
 */
export async function categoryTreeJson(req: FastifyRequest, counts: Map<string, number>): Promise<Row[]> {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const rootName = pm(req.lang, 'root');
  const out: Row[] = [
    {
      id: 'ROOT',
      name: `${rootName}(${total})`,
      title: rootName,
      pId: '',
      open: true,
      isParent: true,
      meta: { type: 'root' },
    },
  ];
  for (const c of categoriesFor(req.lang, (await currentLicence(req)).valid)) {
    const catId = `ROOT_${c.value.toUpperCase()}`;
    const types = [...counts.entries()].filter(([k]) => k.startsWith(`${c.value}/`));
    const n = types.reduce((s, [, v]) => s + v, 0);
    if (!n) continue;
    out.push({
      id: catId,
      name: `${c.label}(${n})`,
      title: c.label,
      pId: 'ROOT',
      open: true,
      isParent: true,
      meta: { type: 'category', category: c.value, _type: c.value },
    });
    for (const [k, count] of types) {
      const type = k.slice(c.value.length + 1);
      const label = c.types.find((t) => t.value === type)?.label ?? type;
      out.push({
        id: `${catId}_${type}`,
        name: `${label}(${count})`,
        title: label,
        pId: catId,
        open: false,
        isParent: true,
        type,
        meta: { type: 'type', category: c.value, _type: type },
      });
    }
  }
  return out;
}
