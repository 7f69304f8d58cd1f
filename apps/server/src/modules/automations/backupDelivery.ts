import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { queueMails } from '../notifications/mail/outbox.ts';
import { mailsFor } from '../notifications/notify.ts';
import { escapeHtml } from '../notifications/sanitize.ts';
import { sendSiteMessage } from '../notifications/siteMessages.ts';
import { storeOf } from '../terminal/storage/replayStorages.ts';
import { am } from './automationText.ts';

/**
 * Where an account backup goes once encrypted (docs/automations.md, "Backup"). Each part gets the
 * file and only its own half of the password:
 * - every recipient user is told their half by a site message, sealed: stored encrypted, opened
 *   only when they read it;
 * - `email`: each part's recipients get a mail with the file attached (the outbox, with the body and
 *   attachment sealed until sent), never the notice subscribers;
 * - `object_storage`: each part's SFTP storages get the file and a text file with that part's half.
 */
export interface BackupParts {
  name: string;
  backup_type?: string;
  one: string[];
  two: string[];
  obj_one?: string[];
  obj_two?: string[];
}

export async function deliverBackup(
  app: FastifyInstance,
  execution: string,
  plan: BackupParts,
  file: string,
  halves: readonly [string, string],
  log: (line: string) => Promise<void>,
): Promise<{ mails: number; uploads: number; errors: string[] }> {
  const db = app.deps.database.db;
  const out = { mails: 0, uploads: 0, errors: [] as string[] };
  const filename = `account-backup-${execution}.csv.enc`;
  for (const [part, ids] of [
    [1, plan.one],
    [2, plan.two],
  ] as const) {
    if (!ids.length) continue;
    const secret = halves[part - 1]!;
    await sendSiteMessage(db, app.deps.bus, {
      userIds: ids,
      sealWith: app.deps.secretBox,
      text: (l) => ({
        subject: am(l, 'backup_subject', { name: plan.name }),
        message: escapeHtml(am(l, 'backup_body', { part, execution, secret })),
      }),
    });
    if (plan.backup_type !== 'email') continue;
    const mails = await mailsFor(
      { db, settings: app.deps.settings },
      {
        type: 'account_backup',
        text: (l) => ({
          subject: am(l, 'backup_subject', { name: plan.name }),
          message: `<p>${escapeHtml(am(l, 'backup_mail_body', { name: plan.name, part, execution, secret }))}</p>`,
        }),
      },
      ids,
    );
    const content = await fs.promises.readFile(file);
    const queued = await queueMails(
      { db, bus: app.deps.bus, settings: app.deps.settings, secretBox: app.deps.secretBox },
      mails.map((m) => ({ ...m, attachment: { filename, content } })),
    );
    out.mails += queued;
    await log(`>>> Part ${part}: ${queued} mail(s) queued with the file attached`);
    if (queued < ids.length) await log(`>>> Part ${part}: ${ids.length - queued} recipient(s) without mail`);
  }
  if (plan.backup_type !== 'object_storage') return out;
  const tmp = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'gh-backup-part-'));
  try {
    for (const [part, ids] of [
      [1, plan.obj_one ?? []],
      [2, plan.obj_two ?? []],
    ] as const) {
      const halfFile = path.join(tmp, `part${part}.txt`);
      await fs.promises.writeFile(halfFile, `${halves[part - 1]}\n`, { mode: 0o600 });
      const rows = ids.length
        ? await db.selectFrom('terminal_replaystorage').selectAll().where('id', 'in', ids).execute()
        : [];
      for (const row of rows) {
        const store = row.type === 'sftp' ? storeOf(row, app.deps.secretBox) : undefined;
        try {
          if (!store) throw new Error('not an SFTP storage');
          await store.put(`account-backups/${filename}`, file);
          await store.put(`account-backups/account-backup-${execution}.part${part}.txt`, halfFile);
          out.uploads += 1;
          await log(`>>> Part ${part}: sent to ${row.name}`);
        } catch (e) {
          const error = String((e as Error).message || e).slice(0, 300);
          out.errors.push(am('en', 'backup_storage_failed', { name: row.name, error }));
          await log(`>>> Part ${part}: not sent to ${row.name}: ${error}`);
        }
      }
      if (rows.length < ids.length) out.errors.push(am('en', 'storages_invalid', { ids: ids.join(', ') }));
    }
  } finally {
    await fs.promises.rm(tmp, { recursive: true, force: true });
  }
  return out;
}
