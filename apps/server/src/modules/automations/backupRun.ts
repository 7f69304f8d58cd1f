import fs from 'node:fs';
import path from 'node:path';
import { createCipheriv, pbkdf2Sync, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { ExecutionHandler } from '../ops/engine/engine.ts';
import { parseJson } from './automationExecutions.ts';
import { deliverBackup, type BackupParts } from './backupDelivery.ts';

/**
 * An account backup (issue 30, item 4; docs/automations.md "Backup"): the org's accounts of the
 * plan's asset types with their secrets, as CSV, encrypted in OpenSSL's `enc` format
 * (AES-256-CBC, PBKDF2-SHA256, 10,000 rounds: `openssl enc -d -aes-256-cbc -pbkdf2 -iter 10000
 * -md sha256` opens it) with a password made of two random halves. Each recipient part gets its
 * half and, by mail or on its SFTP storages, the file (`backupDelivery.ts`); the file also stays in
 * DATA_DIR/account-backups/ for a superuser to download after verifying again. Accounts are read a
 * page at a time and written to the cipher as they come.
 */
export const backupDir = (dataDir: string) => path.join(dataDir, 'account-backups');
export const backupFile = (dataDir: string, execution: string) =>
  path.join(backupDir(dataDir), `${execution.replace(/[^0-9a-f-]/gi, '')}.csv.enc`);

const PAGE = 500;
const csv = (v: unknown) => {
  const s = String(v ?? '');
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The `Salted__` header, salt, key and IV of OpenSSL's `enc -pbkdf2 -md sha256`. */
function opensslCipher(password: string) {
  const salt = randomBytes(8);
  const material = pbkdf2Sync(password, salt, 10_000, 48, 'sha256');
  const cipher = createCipheriv('aes-256-cbc', material.subarray(0, 32), material.subarray(32, 48));
  return { header: Buffer.concat([Buffer.from('Salted__'), salt]), cipher };
}

export function backupHandler(app: FastifyInstance): ExecutionHandler {
  return async (exec, ctx) => {
    const db = app.deps.database.db;
    const v = parseJson<BackupParts & { types: string[] }>(exec.job_version, {
      name: '',
      types: [],
      one: [],
      two: [],
    });
    const halves = [randomBytes(12).toString('base64url'), randomBytes(12).toString('base64url')] as const;
    fs.mkdirSync(backupDir(app.deps.config.dataDir), { recursive: true, mode: 0o700 });
    const file = backupFile(app.deps.config.dataDir, exec.id);
    const out = fs.createWriteStream(file, { mode: 0o600 });
    const { header, cipher } = opensslCipher(halves[0] + halves[1]);
    out.write(header);
    cipher.pipe(out);
    const write = (line: string) =>
      new Promise<void>((resolve) => (cipher.write(line) ? resolve() : cipher.once('drain', resolve)));
    await write('asset,address,name,username,secret_type,secret,passphrase\n');
    let last = '';
    let n = 0;
    for (;;) {
      if (ctx.signal.aborted) break;
      const rows = await db
        .selectFrom('accounts_account as c')
        .innerJoin('assets_asset as a', 'a.id', 'c.asset_id')
        .select([
          'c.id',
          'a.name as asset',
          'a.address',
          'c.name',
          'c.username',
          'c.secret_type',
          'c.secret',
          'c.passphrase',
        ])
        .where('c.org_id', '=', exec.org_id)
        .where((eb) => eb.or([eb('a.type', 'in', v.types), eb('a.category', 'in', v.types)]))
        .where(sql.ref('c.id'), '>', last)
        .orderBy('c.id')
        .limit(PAGE)
        .execute();
      if (!rows.length) break;
      for (const r of rows) {
        const open = (s: string | null) => (s ? app.deps.secretBox.decrypt(s) : '');
        await write(
          [r.asset, r.address, r.name, r.username, r.secret_type, open(r.secret), open(r.passphrase)]
            .map(csv)
            .join(',') + '\n',
        );
      }
      n += rows.length;
      last = rows[rows.length - 1]!.id;
      await ctx.log.write(`>>> ${n} account(s) written`);
    }
    await new Promise<void>((resolve, reject) => {
      out.once('finish', resolve);
      out.once('error', reject);
      cipher.end();
    });
    if (ctx.signal.aborted) {
      fs.rmSync(file, { force: true });
      throw new Error('stopped');
    }
    const sent = await deliverBackup(app, exec.id, v, file, halves, (line) => ctx.log.write(line));
    await ctx.log.write(`>>> Backup of ${n} account(s) encrypted and sent`);
    const summary = { accounts: n, mails: sent.mails, uploads: sent.uploads };
    if (sent.errors.length) return { status: 'failed', summary: { ...summary, error: sent.errors.join('; ') } };
    return { status: 'success', summary };
  };
}
