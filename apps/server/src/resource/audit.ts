import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { SYSTEM_ORG_ID } from '@gatehouse/contract';
import type { DB } from '../platform/db/schema.ts';
import type { ResourceDef, Row } from './types.ts';

/** Operate log and activity of every write: who, what, the before/after diff. */

/** `view`: a secret was revealed (accounts). */
export type OperateAction = 'create' | 'update' | 'delete' | 'view';

export interface DiffItem {
  field: string;
  before: string;
  after: string;
}

const SECRET_MASK = '******';

/** A value as a person reads it in a diff: labels for choices, names for relations. */
export function display(v: unknown): string {
  if (v === null || v === undefined || v === '') return '';
  if (Array.isArray(v)) return v.map(display).join(', ');
  if (typeof v === 'object') {
    const o = v as Row;
    if ('label' in o) return String(o.label);
    if ('display_name' in o) return String(o.display_name);
    if ('name' in o) return String(o.name);
    return JSON.stringify(o);
  }
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return String(v);
}

/** Field-by-field differences of two serialized objects; write-only fields show as changed but masked. */
export function diffOf(
  def: ResourceDef,
  before: Row | undefined,
  after: Row | undefined,
  written: Row = {},
): DiffItem[] {
  const out: DiffItem[] = [];
  for (const [name, f] of Object.entries(def.fields)) {
    if (f.writeOnly) {
      if (name in written && written[name] !== null && written[name] !== undefined)
        out.push({ field: name, before: before ? SECRET_MASK : '', after: SECRET_MASK });
      continue;
    }
    // Computed and read-only fields (date_updated moves on every save) are not what a user changed.
    if ((f.read || f.readOnly) && !(name in written)) continue;
    const b = before ? display(before[name]) : '';
    const a = after ? display(after[name]) : '';
    if (b !== a) out.push({ field: name, before: b, after: a });
  }
  return out;
}

export function actorOf(req: FastifyRequest): string {
  return req.user ? `${req.user.name}(${req.user.username})` : 'System';
}

export interface OperationRecord {
  action: OperateAction;
  /** Only the model is written: a route outside the resource framework names its model alone. */
  def: Pick<ResourceDef, 'model'>;
  resourceId: string;
  resourceName: string;
  orgId: string | undefined;
  diff: DiffItem[];
}

/** Who wrote, when not through an HTTP request (a native SSH connection): `name(username)` and address. */
export interface OperationActor {
  display: string;
  username: string;
  ip: string;
}

const operationActor = (who: FastifyRequest | OperationActor): OperationActor =>
  'display' in who ? who : { display: actorOf(who), username: who.user?.username ?? '', ip: who.ip };

export async function recordOperation(
  db: Kysely<DB>,
  who: FastifyRequest | OperationActor,
  r: OperationRecord,
): Promise<void> {
  const now = new Date().toISOString();
  const logId = randomUUID();
  const orgId = r.orgId ?? SYSTEM_ORG_ID;
  const actor = operationActor(who);
  const user = actor.display;
  await db
    .insertInto('audits_operatelog')
    .values({
      id: logId,
      user,
      action: r.action,
      resource_type: r.def.model,
      resource: r.resourceName.slice(0, 256),
      resource_id: r.resourceId,
      remote_addr: actor.ip,
      datetime: now,
      org_id: orgId,
      diff: JSON.stringify(r.diff),
    })
    .execute();
  await db
    .insertInto('audits_activitylog')
    .values({
      id: randomUUID(),
      type: 'O',
      resource_id: r.resourceId,
      detail_id: logId,
      username: actor.username,
      detail: JSON.stringify({ user, action: r.action, model: r.def.model, resource: r.resourceName }),
      datetime: now,
      org_id: orgId,
    })
    .execute();
}
