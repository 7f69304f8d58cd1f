import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { adminClient, createTestApp } from '@gatehouse/server/test-support/testApp.ts';
import { hostWithAccounts } from '@gatehouse/server/test-support/gateway.ts';
import { startShellSshd } from '@gatehouse/server/test-support/sshd.ts';
import { freePort } from '@gatehouse/server/test-support/ports.ts';
import { runSftp, userKeyPair } from '@gatehouse/server/test-support/sshClients.ts';

/**
 * Issue 17 (c): BENCH_SFTP_MB (100) MB uploaded and downloaded with the OpenSSH `sftp` client
 * through the gateway's native SFTP (ssh2 server → ssh2 SFTP client → the asset) next to the same
 * client straight to the same sshd, in the same run; BENCH_SFTP_RUNS (3) runs each, best time.
 * Prints the ratios gateway / direct (needs root for the test sshd, as the gateway tests).
 */
const MB = Number(process.env.BENCH_SFTP_MB ?? 100);
const RUNS = Number(process.env.BENCH_SFTP_RUNS ?? 3);

async function best(run: () => Promise<void>): Promise<number> {
  let min = Infinity;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run();
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

export async function runSftpBench(): Promise<void> {
  const sshd = await startShellSshd();
  const port = await freePort();
  const t = await createTestApp({ GATEHOUSE_SSH_PORT: String(port) });
  const local = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-sftp-bench-'));
  const remote = `gh-sftp-bench-${randomUUID().slice(0, 8)}`;
  try {
    const admin = await adminClient(t.app);
    const target = await hostWithAccounts(admin, sshd);
    const user = (
      await admin.post('/api/v1/users/users/', {
        name: 'bench',
        username: 'bench',
        email: 'bench@bench.test',
        password_strategy: 'custom',
        password: 'Bench-pass1!',
      })
    ).json() as { id: string };
    await admin.post('/api/v1/perms/asset-permissions/', {
      name: 'sftp-bench',
      users: [user.id],
      assets: [target.host.id],
      accounts: ['@ALL'],
      actions: ['all'],
    });
    const key = userKeyPair();
    await t.deps.database.db
      .updateTable('users_user')
      .set({ public_key: key.publicKey })
      .where('id', '=', user.id)
      .execute();
    // Keeping a copy of each transfer is the gateway's job too, but the bench measures the relay.
    await t.deps.settings.set('FTP_FILE_MAX_STORE', 0);
    const assetKey = path.join(local, 'asset_key');
    fs.writeFileSync(assetKey, sshd.privateKey, { mode: 0o600 });
    fs.writeFileSync(path.join(local, 'up.bin'), Buffer.alloc(MB * 1024 * 1024, 7));

    const through = `/${target.host.name}/${target.password.name}`;
    const sftp = async (direct: boolean, cmd: string) => {
      const r = direct
        ? await runSftp(sshd.port, sshd.username, assetKey, [cmd], local, 600_000)
        : await runSftp(port, 'bench', key.file, [cmd], local, 600_000);
      if (r.code !== 0) throw new Error(`sftp ${cmd}: ${r.err}`);
    };
    const upDirect = await best(() => sftp(true, `put up.bin /tmp/${remote}-d.bin`));
    const upGateway = await best(() => sftp(false, `put up.bin ${through}/${remote}-g.bin`));
    const downDirect = await best(() => sftp(true, `get /tmp/${remote}-d.bin down-d.bin`));
    const downGateway = await best(() => sftp(false, `get ${through}/${remote}-g.bin down-g.bin`));
    const line = (what: string, gw: number, direct: number) =>
      console.log(
        `sftp ${what} ${MB} MB: gateway ${(gw / 1000).toFixed(2)} s (${((MB * 1000) / gw).toFixed(1)} MB/s) | direct ${(direct / 1000).toFixed(2)} s (${((MB * 1000) / direct).toFixed(1)} MB/s) | ratio ${(gw / direct).toFixed(2)}x`,
      );
    console.log(`\n## SFTP through the gateway (best of ${RUNS})`);
    line('upload', upGateway, upDirect);
    line('download', downGateway, downDirect);
  } finally {
    for (const f of fs.readdirSync('/tmp').filter((n) => n.startsWith(remote))) fs.rmSync(path.join('/tmp', f));
    fs.rmSync(local, { recursive: true, force: true });
    await t.close();
    sshd.stop();
  }
}
