import { openDeps } from '../src/app.ts';
import { loadConfig } from '../src/platform/config.ts';
import { GatewayInstance } from '../src/modules/terminal/gateway/instance.ts';

/**
 * A gateway in a process of its own, for the crash test: opens the database of DATA_DIR /
 * DATABASE_URL, starts a gateway instance named GH_GATEWAY_NAME, opens one session (GH_USER_ID,
 * GH_ASSET_ID, GH_ACCOUNT_ID) and types `echo marker-<n>` every 200 ms, printing the session id
 * and `SHOWN <n>` when a marker's output is shown. The test kills it with SIGKILL mid-session
 * (run as `node --import tsx`, one process: the `tsx` command would leave its child running).
 */
async function main(): Promise<void> {
  const env = process.env;
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent' });
  const deps = await openDeps(config, env.GH_PG_SCHEMA ? { pgSchema: env.GH_PG_SCHEMA } : {});
  const g = new GatewayInstance({
    db: deps.database.db,
    bus: deps.bus,
    settings: deps.settings,
    secretBox: deps.secretBox,
    dataDir: config.dataDir,
    name: env.GH_GATEWAY_NAME!,
    cache: deps.cache,
    heartbeatMs: config.gateway.heartbeatMs,
    replayStreamMs: config.gateway.replayStreamMs,
  });
  await g.start();
  const user = await deps.database.db
    .selectFrom('users_user')
    .select(['id', 'name', 'username'])
    .where('id', '=', env.GH_USER_ID!)
    .executeTakeFirstOrThrow();
  const s = await g.openSession({
    user,
    assetId: env.GH_ASSET_ID!,
    accountId: env.GH_ACCOUNT_ID!,
    lang: 'en',
    loginFrom: 'ST',
    remoteAddr: '127.0.0.1',
  });
  process.stdout.write(`SESSION ${s.id}\n`);
  // Tells the test when each marker's output reached the user (the recording has it too, buffered).
  let seen = '';
  s.stream.setEncoding('utf8');
  s.stream.on('data', (text: string) => {
    seen += text;
    // The output line, not the echo of the typed command (`echo marker-<n>`).
    for (const m of seen.matchAll(/[^ ]marker-(\d+)\r\n/g)) process.stdout.write(`SHOWN ${m[1]}\n`);
    seen = seen.slice(-20);
  });
  let n = 0;
  setInterval(() => s.stream.write(`echo marker-${++n}\r`), 200);
}

void main();
