import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Bus } from '../../platform/bus/index.ts';
import type { DB } from '../../platform/db/schema.ts';
import type { SettingsStore } from '../settings/store.ts';
import { escapeHtml } from '../notifications/sanitize.ts';
import { notify, type NotifyDeps } from '../notifications/notify.ts';
import { pm } from './permMessages.ts';
import { OM } from '../ops/opsMessages.ts';
import { cycleOf, defineTask, runTask } from '../ops/tasks/registry.ts';

/**
 * "Your asset permission expires soon": a notice (site message, mail: `notifications/notify.ts`) to each user of a permission (directly or
 * through a group) once it is within PERM_EXPIRE_NOTIFY_DAYS of its expiry. Checked at start and
 * every hour (`registerExpiryNotices`). Each permission is claimed with one conditional UPDATE (`expire_notified` set to the
 * date it warns about), so several instances never send twice, and a new expiry date warns again.
 * Each user reads it in their own language (`notifications/userLanguage.ts`).
 */
const DAY_MS = 86400_000;

export async function notifyExpiringPermissions(
  db: Kysely<DB>,
  bus: Bus,
  settings: SettingsStore,
  now = new Date(),
  log: NotifyDeps['log'] = { error: (obj, msg) => console.error(msg, obj) },
): Promise<number> {
  const days = Number(await settings.get('PERM_EXPIRE_NOTIFY_DAYS'));
  if (!(days > 0)) return 0;
  const from = now.toISOString();
  const until = new Date(now.getTime() + days * DAY_MS).toISOString();
  const due = await db
    .selectFrom('perms_assetpermission as p')
    .innerJoin('orgs_organization as o', 'o.id', 'p.org_id')
    .select(['p.id', 'p.name', 'p.date_expired', 'o.name as org'])
    .where('p.is_active', '=', true)
    .where('p.date_expired', '>', from)
    .where('p.date_expired', '<=', until)
    .where((eb) =>
      eb.or([eb('p.expire_notified', 'is', null), eb('p.expire_notified', '!=', eb.ref('p.date_expired'))]),
    )
    .execute();
  let sent = 0;
  for (const p of due) {
    const claimed = await db
      .updateTable('perms_assetpermission')
      .set({ expire_notified: p.date_expired })
      .where('id', '=', p.id)
      .where((eb) => eb.or([eb('expire_notified', 'is', null), eb('expire_notified', '!=', p.date_expired)]))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) continue;
    const direct = db
      .selectFrom('perms_assetpermission_users')
      .select('user_id')
      .where('assetpermission_id', '=', p.id);
    const viaGroups = db
      .selectFrom('users_user_groups as ug')
      .innerJoin('perms_assetpermission_user_groups as pg', 'pg.usergroup_id', 'ug.usergroup_id')
      .select('ug.user_id')
      .where('pg.assetpermission_id', '=', p.id);
    const users = await db
      .selectFrom('users_user')
      .select('id')
      .where('is_active', '=', true)
      .where((eb) => eb.or([eb('id', 'in', direct), eb('id', 'in', viaGroups)]))
      .execute();
    const date = p.date_expired.replace('T', ' ').slice(0, 19) + ' UTC';
    sent += await notify(
      { db, bus, settings, log },
      {
        type: 'perm_expiring',
        text: (lang) => ({
          subject: pm(lang, 'expire_subject'),
          message: escapeHtml(pm(lang, 'expire_message', { name: p.name, org: p.org, date })),
        }),
        userIds: users.map((u) => u.id),
      },
    );
  }
  return sent;
}

/**
 * One of Gatehouse's own tasks (ops/tasks/registry.ts): run once at start, then every hour by the
 * job engine's scheduler.
 */
export function registerExpiryNotices(app: FastifyInstance): void {
  const name = 'perm_expire_notify';
  const schedule = async () => ({ crontab: '', interval: 1 });
  defineTask(app, {
    name,
    comment: OM.task_perm_expire,
    queue: 'periodic',
    schedule,
    cycle: async (lang) => cycleOf(lang, await schedule()),
    async run(log) {
      const { database, bus, settings } = app.deps;
      const sent = await notifyExpiringPermissions(database.db, bus, settings, undefined, app.log);
      await log.write(`${sent} users told`);
      return { sent };
    },
  });
  app.addHook('onReady', async () => {
    void runTask(app, name, 'start').catch((e: Error) =>
      app.log.error({ err: e.message }, 'asset permission expiry notices failed'),
    );
  });
}
