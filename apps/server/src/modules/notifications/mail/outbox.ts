import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Bus } from '../../../platform/bus/index.ts';
import type { DB } from '../../../platform/db/schema.ts';
import type { SecretBox } from '../../../platform/crypto/secretBox.ts';
import { kickQueue } from '../../../platform/bus/queueKick.ts';
import { loadSmtpConfig, sendMail, type Mail } from './smtp.ts';

/**
 * The one mail sender (docs/notifications.md): every mail is first a row of
 * `notifications_mailoutbox` (migration 1200), written by `queueMails` and drained by the job
 * engine (a queue of `ops/engine/engine.ts`: at start, at every heartbeat, and when kicked through
 * the bus after a write). A drain claims due rows one by one with a conditional update (`pending`
 * -> `sending` with its instance id), so instances never send one twice. A refused or failed send
 * is tried again after 1, 2, 4… heartbeats, MAX_ATTEMPTS times in all, then kept `failed` with the
 * server's last answer. A row left `sending` by an instance that died is taken back after
 * STALE_CLAIM_MS.
 */
export const MAIL_QUEUE = 'mail';
export const MAX_ATTEMPTS = 8;
const STALE_CLAIM_MS = 10 * 60_000;
const BATCH = 20;

export interface QueuedMail extends Mail {
  /** The message type (notifications/messageTypes.ts), for the record. */
  type: string;
}

export interface OutboxDeps {
  db: Kysely<DB>;
  bus: Bus;
  settings: { valueOf(name: string): Promise<unknown> };
  /** Given when a mail carries a secret: its body and attachment are sealed until sent. */
  secretBox?: SecretBox;
}

/** Writes the mails to the outbox and wakes the sender; none is written while no SMTP host is set. */
export async function queueMails(deps: OutboxDeps, mails: readonly QueuedMail[]): Promise<number> {
  const list = mails.filter((m) => m.to.includes('@'));
  if (!list.length || !String((await deps.settings.valueOf('EMAIL_HOST')) ?? '')) return 0;
  const now = new Date().toISOString();
  const seal = (s: string) => (deps.secretBox ? deps.secretBox.encrypt(s) : s);
  await deps.db
    .insertInto('notifications_mailoutbox')
    .values(
      list.map((m) => ({
        id: randomUUID(),
        recipient: m.to.slice(0, 256),
        subject: m.subject,
        html: seal(m.html),
        is_sealed: Boolean(deps.secretBox),
        attachment_name: m.attachment?.filename.slice(0, 255) ?? '',
        attachment: m.attachment ? seal(m.attachment.content.toString('base64')) : null,
        message_type: m.type.slice(0, 64),
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        last_error: '',
        date_created: now,
      })),
    )
    .execute();
  await kickQueue(deps.bus, MAIL_QUEUE);
  return list.length;
}

/** How long after the n-th failed attempt the next one comes (a heartbeat doubled each time). */
export function retryDelayMs(attempts: number, heartbeatMs: number): number {
  return heartbeatMs * 2 ** Math.max(0, attempts - 1);
}

async function claim(db: Kysely<DB>, id: string, instance: string): Promise<boolean> {
  const r = await db
    .updateTable('notifications_mailoutbox')
    .set({ status: 'sending', instance_id: instance, claimed_at: new Date().toISOString() })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Sends what is due, until nothing is. */
export async function drainOutbox(app: FastifyInstance, instance: string): Promise<void> {
  const db = app.deps.database.db;
  const stale = new Date(Date.now() - STALE_CLAIM_MS).toISOString();
  await db
    .updateTable('notifications_mailoutbox')
    .set({ status: 'pending', instance_id: null })
    .where('status', '=', 'sending')
    .where('claimed_at', '<', stale)
    .execute();
  for (;;) {
    const now = new Date().toISOString();
    const due = await db
      .selectFrom('notifications_mailoutbox')
      .selectAll()
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at')
      .limit(BATCH)
      .execute();
    if (!due.length) return;
    const cfg = await loadSmtpConfig(app.deps.settings);
    for (const row of due) {
      if (!(await claim(db, row.id, instance))) continue;
      const attempts = row.attempts + 1;
      try {
        const open = (v: string) => (row.is_sealed ? app.deps.secretBox.decrypt(v) : v);
        await sendMail(cfg, {
          to: row.recipient,
          subject: row.subject,
          html: open(row.html),
          ...(row.attachment !== null
            ? { attachment: { filename: row.attachment_name, content: Buffer.from(open(row.attachment), 'base64') } }
            : {}),
        });
        await db
          .updateTable('notifications_mailoutbox')
          .set({ status: 'sent', attempts, date_sent: new Date().toISOString(), last_error: '', attachment: null })
          .where('id', '=', row.id)
          .execute();
      } catch (e) {
        const error = String((e as Error).message || e).slice(0, 1000);
        const failed = attempts >= MAX_ATTEMPTS;
        const next = new Date(Date.now() + retryDelayMs(attempts, app.deps.config.jobs.heartbeatMs)).toISOString();
        await db
          .updateTable('notifications_mailoutbox')
          .set({ status: failed ? 'failed' : 'pending', attempts, last_error: error, next_attempt_at: next })
          .where('id', '=', row.id)
          .execute();
        app.log.warn({ mail: row.id, type: row.message_type, attempts, failed, err: error }, 'mail not sent');
      }
    }
  }
}

/** The outbox as a queue of the job engine (given by modules/index.ts: the engine sits above). */
export function registerMailOutbox(
  app: FastifyInstance,
  engine: { instanceId: string; addQueue(name: string, drain: () => Promise<void>): void },
): void {
  engine.addQueue(MAIL_QUEUE, () => drainOutbox(app, engine.instanceId));
}
