import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import { adminClient, createTestApp } from '@gatehouse/server/test-support/testApp.ts';
import { apiPost } from '@gatehouse/server/test-support/accounts.ts';
import { ACCOUNTS } from '@gatehouse/server/test-support/sshAsset.ts';

/**
 * Issue 30 (6): one change-secret execution over N accounts, each on its own database asset record
 * in front of the machine's MariaDB (N real users, each changed with ALTER USER by a privileged
 * account and verified by a fresh login), for each N of BENCH_AUTOMATION_SIZES (250,1000). Prints
 * the time, the records written, the task-log lines streamed, and the heap: the sampled peak above
 * the heap before the run, and what stays after a collection, so growth with N shows.
 */
const SIZES = (process.env.BENCH_AUTOMATION_SIZES ?? '250,1000').split(',').map(Number);

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;

async function one(n: number): Promise<void> {
  const tag = randomBytes(2).toString('hex');
  const root = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
  const adm = `ghbadm${tag}`;
  const users = Array.from({ length: n }, (_, i) => `ghb${tag}${i}`);
  const t = await createTestApp({ JOB_HOSTS: '20' }, { fresh: true });
  try {
    await root.query('CREATE USER ?@? IDENTIFIED BY ?', [adm, '127.0.0.1', 'Bench-adm-1']);
    await root.query('GRANT CREATE USER ON *.* TO ?@?', [adm, '127.0.0.1']);
    await root.query('GRANT SELECT ON mysql.* TO ?@?', [adm, '127.0.0.1']);
    for (const u of users) await root.query('CREATE USER ?@? IDENTIFIED BY ?', [u, '127.0.0.1', 'Bench-old-1']);
    const admin = await adminClient(t.app);
    const post = apiPost(admin);
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const db = await post('/api/v1/assets/databases/', {
        name: `bench-mdb-${i}`,
        address: '127.0.0.1',
        platform: 'MariaDB',
        protocols: [{ name: 'mariadb', port: 3306 }],
      });
      await post(ACCOUNTS, { asset: db.id, username: adm, secret: 'Bench-adm-1', privileged: true });
      await post(ACCOUNTS, { asset: db.id, username: users[i]!, secret: 'Bench-old-1' });
      ids.push(db.id as string);
    }
    const plan = await post('/api/v1/accounts/change-secret-automations/', {
      name: 'bench',
      assets: ids,
      accounts: users,
      secret_strategy: 'random',
      password_rules: { length: 20 },
      is_periodic: false,
    });
    gc();
    const base = process.memoryUsage().heapUsed;
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 50);
    const t0 = performance.now();
    const res = await admin.post('/api/v1/accounts/change-secret-executions/', { automation: plan.id });
    const task = (res.json() as { task: string }).task;
    let status = '';
    for (;;) {
      const d = (await admin.get(`/api/v1/accounts/change-secret-executions/${task}/`)).json() as {
        status: { value: string };
      };
      status = d.status.value;
      if (status !== 'pending' && status !== 'running') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const ms = performance.now() - t0;
    clearInterval(sampler);
    gc();
    const after = process.memoryUsage().heapUsed;
    const records = await t.deps.database.db
      .selectFrom('accounts_automationrecord')
      .select(['status'])
      .where('execution_id', '=', task)
      .execute();
    const ok = records.filter((r) => r.status === 'success').length;
    // The task log's line counter (ops/taskLog.ts).
    const lines = Number((await t.deps.cache.get<number>(`gh:tasklog:${task}:n`)) ?? 0);
    console.log(
      `- change secret over ${n} database accounts: ${status}, ${(ms / 1000).toFixed(1)} s ` +
        `(${(ms / n).toFixed(1)} ms per account at 20 at a time), records ${records.length} (${ok} success), ` +
        `heap peak +${mib(peak - base)}, after +${mib(after - base)}${lines ? `, task log ${lines} lines` : ''}`,
    );
  } finally {
    await t.close();
    for (const u of [adm, ...users])
      await root.query('DROP USER IF EXISTS ?@?', [u, '127.0.0.1']).catch(() => undefined);
    await root.end();
  }
}

export async function runAutomationsBench(): Promise<void> {
  console.log('\n## Account automations (issue 30)');
  for (const n of SIZES) await one(n);
}
