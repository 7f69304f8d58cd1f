import fs from 'node:fs';
import net from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { listenOnLoopback } from '../../../../test-support/siteMsgSocket.ts';
import { makeUser, PASSWORD } from '../../../../test-support/perms.ts';
import { freePort } from '../../../../test-support/ports.ts';
import { TOOLS_SOCKET_PATH } from './toolsSocket.ts';
import { planTool } from './toolParams.ts';

/**
 * Settings › Tools over `/ws/setting/tools/` with Debian's real ping, nmap, tcpdump and traceroute
 * against a TCP service on loopback started here: output arrives a line per message while the
 * program runs; shell metacharacters and option injection in every field are refused before
 * anything runs; only system administrators get in.
 */
let t: TestApp;
let admin: SessionClient;
let base: string;
let service: net.Server;
let servicePort: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  base = await listenOnLoopback(t.app);
  service = net.createServer((s) => s.end('SSH-2.0-GatehouseTest\r\n'));
  await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
  servicePort = (service.address() as net.AddressInfo).port;
}, 30_000);
afterAll(async () => {
  service?.close();
  await t?.close();
});

interface Run {
  lines: string[];
  at: number[];
  code: number;
}

/** Runs one tool as `client`; `onLine` sees each line as it comes. */
function run(client: SessionClient, body: unknown, onLine: (l: string) => void = () => {}): Promise<Run> {
  const ws = new WebSocket(`${base}${TOOLS_SOCKET_PATH}`, { headers: { cookie: client.jar.header() } });
  const out: Run = { lines: [], at: [], code: 0 };
  return new Promise((resolve, reject) => {
    ws.once('open', () => ws.send(JSON.stringify(body)));
    ws.on('message', (d) => {
      const msg = (JSON.parse(String(d)) as { msg: string }).msg;
      out.lines.push(msg);
      out.at.push(Date.now());
      onLine(msg);
    });
    ws.once('close', (code) => resolve({ ...out, code }));
    ws.once('error', reject);
  });
}

const text = (r: Run) => r.lines.join('');

describe('system tools', () => {
  it('streams ping line by line while it runs', async () => {
    const r = await run(admin, { tool_type: 'Ping', dest_ips: '127.0.0.1', count: 2, timeout: 1 });
    expect(r.code).toBe(1000);
    expect(r.lines.every((l) => l.endsWith('\r\n') && !l.slice(0, -2).includes('\n'))).toBe(true);
    expect(text(r)).toMatch(/PING 127\.0\.0\.1/);
    expect(text(r)).toMatch(/2 packets transmitted, 2 received/);
    // ping waits a second between its two packets: the first reply came well before the summary.
    const first = r.lines.findIndex((l) => l.includes('icmp_seq=1'));
    expect(r.at[r.at.length - 1]! - r.at[first]!).toBeGreaterThan(500);
  });

  it('telnets to a port: the banner when it answers, the reason when it does not', async () => {
    const open = await run(admin, { tool_type: 'Telnet', dest_ips: '127.0.0.1', dest_port: servicePort });
    expect(text(open)).toContain(`Connected to 127.0.0.1 (127.0.0.1) port ${servicePort}.`);
    expect(text(open)).toContain('SSH-2.0-GatehouseTest');
    const closed = await run(admin, { tool_type: 'Telnet', dest_ips: '127.0.0.1', dest_port: await freePort() });
    expect(text(closed)).toMatch(/Unable to connect .*ECONNREFUSED/);
  });

  it('scans with nmap and traces with traceroute', async () => {
    const scan = await run(admin, { tool_type: 'Nmap', dest_ips: '127.0.0.1', dest_ports: `${servicePort}` });
    expect(text(scan)).toMatch(new RegExp(`${servicePort}/tcp\\s+open`));
    const trace = await run(admin, { tool_type: 'Traceroute', dest_ips: '127.0.0.1' });
    expect(text(trace)).toMatch(/traceroute to 127\.0\.0\.1/);
    expect(text(trace)).toMatch(/1\s+127\.0\.0\.1/);
  }, 30_000);

  it('captures with tcpdump, bounded by count, filtered by the checked values', async () => {
    const r = await run(
      admin,
      {
        tool_type: 'Tcpdump',
        interfaces: ['lo'],
        dest_ips: '127.0.0.1',
        dest_ports: `${servicePort}`,
        count: 1,
        timeout: 20,
      },
      (l) => {
        // Traffic once tcpdump listens.
        if (l.includes('listening on lo'))
          net
            .connect(servicePort, '127.0.0.1')
            .on('error', () => {})
            .resume();
      },
    );
    expect(text(r)).toMatch(new RegExp(`127\\.0\\.0\\.1\\.\\d+ > 127\\.0\\.0\\.1\\.${servicePort}`));
    expect(text(r)).toMatch(/1 packet captured/);
  }, 30_000);

  it('refuses shell metacharacters and option injection in every field, running nothing', async () => {
    const hostile = [
      '-oN /etc/gatehouse-x',
      '--script=vuln',
      '-iL/etc/passwd',
      '127.0.0.1;id',
      '$(touch /tmp/gh-pwned)',
      '`id`',
      '127.0.0.1|cat',
      '127.0.0.1&&id',
      '-',
      '10.0.0.0/8',
      '../../etc/passwd',
    ];
    const fields: Record<string, string[]> = {
      Ping: ['dest_ips', 'count', 'timeout', 'psize'],
      Telnet: ['dest_ips', 'dest_port', 'timeout'],
      Nmap: ['dest_ips', 'dest_ports', 'timeout'],
      Tcpdump: ['interfaces', 'src_ips', 'src_ports', 'dest_ips', 'dest_ports', 'timeout', 'count'],
      Traceroute: ['dest_ips', 'timeout'],
    };
    const valid: Record<string, unknown> = { dest_ips: '127.0.0.1' };
    for (const [tool, names] of Object.entries(fields))
      for (const field of names)
        for (const value of hostile) {
          expect(() => planTool(tool, { ...valid, [field]: value }), `${tool}.${field}=${value}`).toThrow();
          expect(() => planTool(tool, { ...valid, [field]: [value] }), `${tool}.${field}=[${value}]`).toThrow();
        }
    // Through the socket: one message naming the field, then the close.
    const r = await run(admin, { tool_type: 'Nmap', dest_ips: '127.0.0.1 -oN /etc/gatehouse-x' });
    expect(r.lines).toEqual([expect.stringMatching(/^dest_ips: "-oN" is not an IP address or host name/)]);
    const count = await run(admin, { tool_type: 'Ping', dest_ips: '127.0.0.1', count: '3; id' });
    expect(count.lines[0]).toMatch(/^count: a whole number from 1 to 20/);
    expect(fs.existsSync('/etc/gatehouse-x')).toBe(false);
    expect(fs.existsSync('/tmp/gh-pwned')).toBe(false);
    expect(text(await run(admin, { tool_type: 'Bash', cmd: 'id' }))).toMatch(/Unknown tool/);
    expect(text(await run(admin, 'not an object'))).toMatch(/JSON object/);
  });

  it('puts destinations after -- and each value in one argument', () => {
    const plan = planTool('Nmap', { dest_ips: ['127.0.0.1', 'host.example'], dest_ports: '22, 80-81' });
    expect(plan).toMatchObject({
      kind: 'exec',
      runs: [
        { program: 'nmap', args: ['-n', '--host-timeout', '60s', '-p', '22,80-81', '--', '127.0.0.1', 'host.example'] },
      ],
    });
  });

  it('lets only system administrators in', async () => {
    await makeUser(admin, 'tools-user');
    const user = new SessionClient(t.app);
    expect((await user.login('tools-user', PASSWORD)).statusCode).toBe(200);
    const r = await run(user, { tool_type: 'Ping', dest_ips: '127.0.0.1' });
    expect(r.code).toBe(4003);
    expect(text(r)).toMatch(/Only system administrators/);
    const anonymous = await run(new SessionClient(t.app), { tool_type: 'Ping', dest_ips: '127.0.0.1' });
    expect(anonymous.code).toBe(4003);
  });
});
