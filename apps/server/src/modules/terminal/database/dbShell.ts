import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Language } from '@gatehouse/contract';
import type { PluggedRemote } from '../gateway/gatewaySession.ts';
import type { RemoteShell } from '../gateway/remoteShell.ts';
import type { TypedLogin } from '../gateway/sshTarget.ts';
import type { DbSession } from './dbSession.ts';
import { resolveDbTarget } from './dbTarget.ts';
import { serveMysql } from './mysqlProxy.ts';
import { servePg } from './pgProxy.ts';
import type { SqlDialect } from './sqlText.ts';

/**
 * The web terminal's database session: the database's own client (`psql`, MariaDB's `mariadb`)
 * run by Gatehouse under a pseudo-terminal (`ptyRun.py`, an argument list, no shell), connected
 * to the database proxy through a Unix socket in a private directory (mode 0700, removed at the
 * end) that serves that one connection, signed in already as the session's user, asset and
 * account. The account's secret never reaches the client: the proxy logs in upstream with it
 * (`pgProxy.ts`, `mysqlProxy.ts`), and the client is given no password at all. The client's
 * statements are judged and recorded by the proxy under the terminal session
 * (`DbSession` embedded); the terminal session records the screen (the replay) and carries kill,
 * lock, watch and the limits.
 */
export interface DbShellOptions {
  sessionId: string;
  user: { id: string; name: string; username: string };
  assetId: string;
  accountId: string;
  typed?: TypedLogin;
  lang: Language;
  remoteAddr: string;
  dialect: SqlDialect;
  size: { cols: number; rows: number };
}

const PTY_RUN = path.join(import.meta.dirname, 'ptyRun.py');

function onPath(name: string): boolean {
  return (process.env.PATH ?? '/usr/bin:/bin').split(':').some((d) => d && fs.existsSync(path.join(d, name)));
}

/** The client's argument list and environment (no secret in either). */
function clientCommand(dialect: SqlDialect, dir: string, socket: string, user: string, database: string) {
  const base = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, TERM: 'xterm-256color', LANG: 'C.UTF-8' };
  if (dialect === 'postgresql')
    return {
      argv: ['psql'],
      env: {
        ...base,
        PGHOST: dir,
        PGPORT: '5432',
        PGUSER: user,
        PGDATABASE: database || user,
        PGAPPNAME: 'gatehouse',
        PSQL_HISTORY: path.join(dir, 'history'),
      },
    };
  const program = onPath('mariadb') ? 'mariadb' : 'mysql';
  return {
    // --skip-auto-rehash: no table-name completion, which reads every table's columns at start.
    argv: [
      program,
      '--no-defaults',
      '--skip-auto-rehash',
      `--socket=${socket}`,
      `--user=${user}`,
      ...(database ? [`--database=${database}`] : []),
    ],
    env: { ...base, MYSQL_HISTFILE: path.join(dir, 'history') },
  };
}

export async function openDbShell(app: FastifyInstance, o: DbShellOptions): Promise<PluggedRemote> {
  const { db } = app.deps.database;
  const target = await resolveDbTarget(db, app.deps.secretBox, o.lang, o.dialect, o.assetId, o.accountId, o.typed);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-db-'));
  const socket = path.join(dir, o.dialect === 'postgresql' ? '.s.PGSQL.5432' : 'mysql.sock');
  let session: DbSession | undefined;
  let served = false;
  const preauth = {
    login: {
      user: o.user,
      assetId: o.assetId,
      accountId: o.accountId,
      ...(o.typed ? { typed: o.typed } : {}),
      lang: o.lang,
    },
    sessionId: o.sessionId,
    onSession: (s: DbSession) => (session = s),
  };
  const server = net.createServer((sock) => {
    // One connection: the client's own. Anything after it is turned away.
    if (served) return sock.destroy();
    served = true;
    server.close();
    const serve = o.dialect === 'postgresql' ? servePg : serveMysql;
    serve(app, sock, o.remoteAddr, { loginFrom: 'WT', preauth });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => resolve());
  });
  const cmd = clientCommand(o.dialect, dir, socket, o.user.username, target.database);
  const child = spawn('python3', [PTY_RUN, String(o.size.cols), String(o.size.rows), ...cmd.argv], {
    env: cmd.env,
    cwd: dir,
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
  });
  const control = child.stdio[3] as Writable;
  control.on('error', () => undefined);
  child.stdin.on('error', () => undefined);
  let ended = false;
  const cleanup = () => {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const shell: RemoteShell = Object.assign(new EventEmitter<{ data: [Buffer]; close: ['closed' | 'error'] }>(), {
    write: (text: string) => void child.stdin.write(text),
    pause: () => void child.stdout.pause(),
    resume: () => void child.stdout.resume(),
    resize: (cols: number, rows: number) => void control.write(`${cols} ${rows}\n`),
    end: () => {
      if (ended) return;
      ended = true;
      child.kill('SIGHUP');
      setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 2000).unref();
      cleanup();
    },
  });
  child.stdout.on('data', (b: Buffer) => shell.emit('data', b));
  child.stderr.on('data', (b: Buffer) => shell.emit('data', b));
  child.once('close', () => {
    cleanup();
    shell.emit('close', 'closed');
  });
  child.once('error', () => {
    cleanup();
    shell.emit('close', 'error');
  });
  return {
    shell,
    orgId: target.orgId,
    display: target.display,
    commands: () => session?.count ?? 0,
    finish: async () => {
      await session?.finish();
    },
  };
}
