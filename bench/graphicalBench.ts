import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { startVncServer } from '@gatehouse/server/test-support/vncServer.ts';
import { rfbClient, rfbDirect } from '@gatehouse/server/test-support/rfbClient.ts';
import { signIn } from './client.ts';
import { startServerProcess } from './gatewayClients.ts';
import { percentile } from './stats.ts';

/**
 * Issue 34's speed goal (BENCH_ONLY=graphical): frame latency from a screen change on a VNC
 * server to the client, at p95, through the gateway (WebSocket, the relay's framing, the
 * recording) next to a client straight to the same server on TCP, both connected at once and
 * seeing the same changes. The changes: the desktop's xterm runs a loop that writes the time
 * (`date +%s%N`) to a file and then a line to the screen every BENCH_GUI_INTERVAL_MS (100) ms for
 * BENCH_GUI_SECONDS (20) s; a change's latency at a client is the first framebuffer update it
 * completes after that time. Goal: gateway p95 at most 1.5x direct. The server is `main.ts` in a
 * child process (SQLite), as an operator runs it; the clients are in this process.
 */
const PASSWORD = 'Bench-pass1';
const SECONDS = Number(process.env.BENCH_GUI_SECONDS ?? 20);
const INTERVAL = Number(process.env.BENCH_GUI_INTERVAL_MS ?? 100);
// ZRLE (noVNC's choice among what the gateway frames), CopyRect, Raw: the same on both paths.
const ENCODINGS = [16, 1, 0, -223];

function latencies(ticks: number[], arrivals: number[]): number[] {
  const out: number[] = [];
  let j = 0;
  for (const t of ticks) {
    while (j < arrivals.length && arrivals[j]! < t) j++;
    if (j < arrivals.length && arrivals[j]! - t < 1000) out.push(arrivals[j]! - t);
  }
  return out;
}

export async function runGraphicalBench(): Promise<void> {
  const vnc = await startVncServer({ width: 1024, height: 768 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-gui-bench-'));
  const server = await startServerProcess({ DATA_DIR: path.join(dir, 'data'), GATEHOUSE_ADMIN_PASSWORD: PASSWORD });
  try {
    const headers = await signIn(server.base, PASSWORD);
    const post = async (url: string, body: unknown) => {
      const res = await fetch(`${server.base}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
      const json = (await res.json()) as { id: string; name: string };
      if (res.status !== 201) throw new Error(`${url}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const me = (await (await fetch(`${server.base}/api/v1/users/profile/`, { headers })).json()) as { id: string };
    const host = await post('/api/v1/assets/hosts/', {
      name: 'bench-desktop',
      address: '127.0.0.1',
      platform: 'Linux',
      protocols: [
        { name: 'ssh', port: 22 },
        { name: 'vnc', port: vnc.port },
      ],
    });
    const account = await post('/api/v1/accounts/accounts/', {
      asset: host.id,
      username: 'desktop',
      secret: vnc.password,
    });
    await post('/api/v1/perms/asset-permissions/', {
      name: 'bench-gui',
      users: [me.id],
      assets: [host.id],
      accounts: ['@ALL'],
      actions: ['connect'],
    });
    const token = await post('/api/v1/authentication/connection-token/', {
      asset: host.id,
      account: account.name,
      protocol: 'vnc',
      connect_method: 'web_gui',
    });
    const ws = server.base.replace(/^http/, 'ws');
    const gw = rfbClient(`${ws}/koko/ws/graphical/?token=${token.id}&width=1024&height=768`, { encodings: ENCODINGS });
    const direct = await rfbDirect(vnc.port, vnc.password, ENCODINGS);
    await gw.waitFor(() => gw.connected() && gw.updates > 0, 'the gateway client');
    for (let i = 0; i < 200 && direct.updates === 0; i++) await new Promise((r) => setTimeout(r, 25));
    const ticks = path.join(vnc.dir, 'ticks');
    const loops = Math.round((SECONDS * 1000) / INTERVAL);
    const sleep = (INTERVAL / 1000).toFixed(3);
    direct.typeLine(
      `i=0; while [ $i -lt ${loops} ]; do date +%s%N >> ticks; echo tick $i; i=$((i+1)); sleep ${sleep}; done`,
    );
    const start = Date.now();
    while (Date.now() - start < SECONDS * 1000 + 3000) {
      await new Promise((r) => setTimeout(r, 250));
      if (fs.existsSync(ticks) && fs.readFileSync(ticks, 'utf8').split('\n').length > loops) break;
    }
    await new Promise((r) => setTimeout(r, 500));
    const times = fs
      .readFileSync(ticks, 'utf8')
      .trim()
      .split('\n')
      .map((l) => Number(l) / 1e6);
    const a = latencies(times, gw.arrivals);
    const b = latencies(times, direct.arrivals);
    const line = (name: string, l: number[]) =>
      `${name} p50 ${percentile(l, 50).toFixed(1)} ms / p95 ${percentile(l, 95).toFixed(1)} ms (${l.length} changes)`;
    console.log(`graphical frame latency over ${times.length} screen changes:`);
    console.log(`  ${line('gateway', a)}`);
    console.log(`  ${line('direct ', b)}`);
    const ratio = percentile(a, 95) / Math.max(0.001, percentile(b, 95));
    console.log(`  p95 ratio gateway/direct ${ratio.toFixed(2)}x (goal <= 1.5x)`);
    gw.ws.close();
    direct.close();
    await gw.closed;
  } finally {
    await server.stop();
    vnc.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
