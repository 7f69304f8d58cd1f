import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { shape } from '../../resource/describe.ts';
import { display, recordOperation } from '../../resource/audit.ts';
import { registerLoggedModel } from '../../resource/registry.ts';
import { catalogue, tr } from '../../platform/i18n/catalogue.ts';
import type notificationsMessages from '../../platform/i18n/locales/en/notifications.json';
import {
  BACKEND_LABELS,
  BACKENDS,
  CATEGORY_LABELS,
  MESSAGE_TYPES,
  isMessageType,
  type Backend,
  type MessageType,
} from './messageTypes.ts';
import { saveSubscription, subscriptionOf, subscriptions, type Subscription } from './subscriptions.ts';

const M = catalogue<typeof notificationsMessages>('notifications');

/**
 * Messages › Subscription (contract §4.19): `backends/` lists the backends that can send now
 * (site messages always, email once an SMTP host is set);
 * `system-msg-subscription/` lists every message type grouped by category with its users,
 * groups and backends, and `system-msg-subscription/<message_type>/` (PUT/PATCH) changes them
 * (`settings.change_systemmsgsubscription`). Every sender reads them (`notify.ts`).
 */
const BASE = '/api/v1/notifications/';
const PERM = { perm: 'settings.change_systemmsgsubscription' };
const MODEL = { model: 'systemmsgsubscription', label: M.subscription_model };
const MAX_RECEIVERS = 1000;

async function enabledBackends(req: FastifyRequest): Promise<Backend[]> {
  const s = req.server.deps.settings;
  const email = Boolean(String((await s.valueOf('EMAIL_HOST')) ?? ''));
  return BACKENDS.filter((b) => b === 'site_msg' || (b === 'email' && email));
}

async function receivers(req: FastifyRequest, s: Subscription) {
  const db = req.db;
  const users = s.users.length
    ? await db.selectFrom('users_user').select(['id', 'name', 'username']).where('id', 'in', s.users).execute()
    : [];
  const groups = s.groups.length
    ? await db.selectFrom('users_usergroup').select(['id', 'name']).where('id', 'in', s.groups).execute()
    : [];
  return { users, groups };
}

async function answer(req: FastifyRequest, s: Subscription) {
  const { users, groups } = await receivers(req, s);
  return {
    message_type: s.message_type,
    message_type_label: MESSAGE_TYPES[s.message_type].label[req.lang],
    users: users.map((u) => ({ id: u.id, name: u.name, username: u.username })),
    groups: groups.map((g) => ({ id: g.id, name: g.name })),
    receive_backends: s.receive_backends,
    receivers: [...users.map((u) => `${u.name}(${u.username})`), ...groups.map((g) => g.name)],
  };
}

async function list(req: FastifyRequest) {
  const all = await subscriptions(req.db);
  const byCategory = new Map<string, Awaited<ReturnType<typeof answer>>[]>();
  for (const [type, s] of all) {
    const c = MESSAGE_TYPES[type].category;
    byCategory.set(c, [...(byCategory.get(c) ?? []), await answer(req, s)]);
  }
  return [...byCategory].map(([category, children]) => ({
    category,
    category_label: CATEGORY_LABELS[category as keyof typeof CATEGORY_LABELS][req.lang],
    children,
  }));
}

/** A list of ids (or `{id}` objects, as the console's selects send) of existing rows of `table`. */
async function ids(
  req: FastifyRequest,
  raw: unknown,
  table: 'users_user' | 'users_usergroup',
  field: string,
  errors: Record<string, string[]>,
): Promise<string[] | undefined> {
  if (!Array.isArray(raw) || raw.length > MAX_RECEIVERS) {
    errors[field] = [tr(req.lang, table === 'users_user' ? M.unknown_users : M.unknown_groups, { value: '…' })];
    return undefined;
  }
  const list = [
    ...new Set(raw.map((x) => (x && typeof x === 'object' ? (x as { id?: unknown }).id : x)).map((x) => String(x))),
  ];
  const found = list.length ? await req.db.selectFrom(table).select('id').where('id', 'in', list).execute() : [];
  const missing = list.filter((id) => !found.some((f) => f.id === id));
  if (missing.length) {
    const msg = table === 'users_user' ? M.unknown_users : M.unknown_groups;
    errors[field] = [tr(req.lang, msg, { value: missing.slice(0, 5).join(', ') })];
    return undefined;
  }
  return list;
}

async function update(req: FastifyRequest, partial: boolean) {
  const type = (req.params as { type: string }).type;
  if (!isMessageType(type)) throw new ApiError(404, { detail: tr(req.lang, M.unknown_type, { value: type }) });
  const body = (req.body ?? {}) as Record<string, unknown>;
  if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, {});
  const before = await subscriptionOf(req.db, type as MessageType);
  const next: Subscription = { ...before };
  const errors: Record<string, string[]> = {};
  for (const key of ['users', 'groups', 'receive_backends'] as const)
    if (!partial && !(key in body)) errors[key] = [tr(req.lang, M.field_required)];
  if ('users' in body) next.users = (await ids(req, body.users, 'users_user', 'users', errors)) ?? [];
  if ('groups' in body) next.groups = (await ids(req, body.groups, 'users_usergroup', 'groups', errors)) ?? [];
  if ('receive_backends' in body) {
    const raw = body.receive_backends;
    const bad = Array.isArray(raw)
      ? raw.find((b) => !(BACKENDS as readonly unknown[]).includes(b))
      : JSON.stringify(raw);
    if (bad !== undefined) errors.receive_backends = [tr(req.lang, M.unknown_backend, { value: String(bad) })];
    else next.receive_backends = [...new Set(raw as Backend[])];
  }
  if (Object.keys(errors).length) throw new ApiError(400, errors);
  await saveSubscription(req.db, next);
  const diff = (['users', 'groups', 'receive_backends'] as const)
    .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(next[k]))
    .map((k) => ({ field: k, before: display(before[k]), after: display(next[k]) }));
  if (diff.length)
    await recordOperation(req.db, req, {
      action: 'update',
      def: MODEL,
      resourceId: type,
      resourceName: MESSAGE_TYPES[type].label[req.lang],
      orgId: undefined,
      diff,
    });
  return answer(req, next);
}

export function registerSubscriptionRoutes(app: FastifyInstance): void {
  registerLoggedModel(MODEL);
  app.get(
    `${BASE}backends/`,
    { config: { describe: shape('message_backend', { name: 'string', name_display: 'string' }) } },
    async (req) => (await enabledBackends(req)).map((name) => ({ name, name_display: BACKEND_LABELS[name][req.lang] })),
  );
  app.get(
    `${BASE}system-msg-subscription/`,
    {
      config: {
        ...PERM,
        describe: shape('msg_subscription', { category: 'string', category_label: 'string', children: 'list' }),
      },
    },
    list,
  );
  const one = `${BASE}system-msg-subscription/:type/`;
  app.get(
    one,
    {
      config: {
        ...PERM,
        describe: shape('msg_subscription', {
          message_type: 'string',
          message_type_label: 'string',
          users: 'list',
          groups: 'list',
          receive_backends: 'list',
          receivers: 'list',
        }),
      },
    },
    async (req) => {
      const type = (req.params as { type: string }).type;
      if (!isMessageType(type)) throw new ApiError(404, { detail: tr(req.lang, M.unknown_type, { value: type }) });
      return answer(req, await subscriptionOf(req.db, type));
    },
  );
  app.put(one, { config: PERM }, (req) => update(req, false));
  app.patch(one, { config: PERM }, (req) => update(req, true));
}
