import type { FastifyInstance } from 'fastify';
import type { Language } from '@gatehouse/contract';
import ssh2 from 'ssh2';
import type { AuthContext, AuthenticationType, Connection, Server, ServerChannel } from 'ssh2';
import type { AuthUser } from '../../../http/context.ts';
import { loadHostKey } from './hostKey.ts';
import { sshKeyStep, sshOtpStep, sshPasswordStep, sshRequest } from './sshAuth.ts';
import { sm } from './sshMessages.ts';
import { SshShell, type Pty } from './sshShell.ts';
import { SftpSubsystem } from '../sftp/sftpSubsystem.ts';
import { ClientLanguage } from './clientLanguage.ts';
import { checkNativeAccess, NativeReviewPending } from './nativeAccessRules.ts';
import { GatewayError } from '../gateway/gatewayError.ts';
import type { ExecEnd } from '../gateway/gatewayExec.ts';
import { gatewayOf } from '../gatewayInstance.ts';
import { findDirectTarget } from './sshTargets.ts';

/**
 * The native SSH server (ssh2's Server on `GATEHOUSE_SSH_PORT`, on the API's host): sign-in with the
 * Gatehouse password (password or keyboard-interactive) and, when the user has MFA, an OTP code
 * asked by keyboard-interactive; then the menu (sshShell.ts) or, for `<user>@<account>@<asset>` or
 * `<user>@<asset>` as the SSH user name, straight into that asset (one command for scripts).
 * Sign-in prompts are English (the client's locale comes after); from then on the texts follow
 * the locale of the client's `env` requests (clientLanguage.ts).
 */
const LANG: Language = 'en';

interface Login {
  /** The Gatehouse user name: the SSH user name up to its first `@`. */
  username: string;
  /** What follows: `<account>@<asset>` or `<asset>`, empty for the menu. */
  target: string;
  user?: AuthUser;
  /** Who checked the password (login log of the OTP step). */
  backend?: string;
  needOtp: boolean;
  /**
   * The Gatehouse password the user signed in with, kept in memory for this connection only (never
   * logged): SFTP has no prompt, so an `@USER` folder logs in to the asset with it.
   */
  password?: string;
}

function splitUsername(raw: string): { username: string; target: string } {
  const at = raw.indexOf('@');
  return at < 0 ? { username: raw, target: '' } : { username: raw.slice(0, at), target: raw.slice(at + 1) };
}

function ask(ctx: AuthContext, prompt: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    if (ctx.method !== 'keyboard-interactive') return resolve(undefined);
    ctx.prompt([{ prompt, echo: false }], (answers) => resolve(answers[0]));
  });
}

async function authenticate(app: FastifyInstance, ip: string, login: Login, ctx: AuthContext): Promise<void> {
  const req = sshRequest(app, ip, LANG);
  const methods: AuthenticationType[] = ['publickey', 'password', 'keyboard-interactive'];
  if (ctx.method === 'publickey' && !login.user) {
    const signed = ctx.signature ? { blob: ctx.blob!, signature: ctx.signature, hashAlgo: ctx.hashAlgo } : undefined;
    const step = await sshKeyStep(req, login.username, ctx.key, signed);
    if (step === 'fits') return ctx.accept();
    if (!step.ok) return ctx.reject(methods);
    login.user = step.user;
    login.backend = step.backend;
    login.needOtp = step.mfa;
    return step.mfa ? ctx.reject(['keyboard-interactive'], true) : ctx.accept();
  }
  if (ctx.method !== 'password' && ctx.method !== 'keyboard-interactive') return ctx.reject(methods);
  if (!login.user) {
    const password = ctx.method === 'password' ? ctx.password : await ask(ctx, sm(LANG, 'ssh_password_prompt'));
    if (password === undefined) return ctx.reject(methods);
    const step = await sshPasswordStep(req, login.username, password);
    if (!step.ok) return ctx.reject(methods);
    login.user = step.user;
    login.backend = step.backend;
    login.needOtp = step.mfa;
    login.password = password;
    if (!step.mfa) return ctx.accept();
    // Password-only clients cannot answer a code: ask for keyboard-interactive (partial success).
    if (ctx.method === 'password') return ctx.reject(['keyboard-interactive'], true);
  }
  if (!login.needOtp) return ctx.accept();
  const code = await ask(ctx, sm(LANG, 'ssh_otp_prompt'));
  if (code === undefined) return ctx.reject(['keyboard-interactive'], true);
  const otp = await sshOtpStep(req, login.user, code, login.backend);
  if (otp.ok) {
    login.needOtp = false;
    return ctx.accept();
  }
  return ctx.reject(['keyboard-interactive'], true);
}

function onConnection(app: FastifyInstance, client: Connection, ip: string): void {
  let login: Login | undefined;
  client.on('authentication', (ctx) => {
    const parts = splitUsername(ctx.username);
    // A new user name restarts the sign-in (ssh2 allows a client to change it between attempts).
    if (!login || login.username !== parts.username) login = { ...parts, needOtp: false };
    else login.target = parts.target;
    authenticate(app, ip, login, ctx).catch((e: unknown) => {
      app.log.error({ err: (e as Error).message }, 'ssh sign-in failed');
      ctx.reject();
    });
  });
  client.on('error', () => undefined);
  client.on('ready', () => {
    const user = login!.user!;
    const language = new ClientLanguage();
    client.on('session', (acceptSession) => {
      const session = acceptSession();
      session.on('env', (accept, reject, info) => {
        if (language.set(info.key, info.val)) accept?.();
        else reject?.();
      });
      const pty: Pty = { cols: 80, rows: 24, term: 'xterm-256color' };
      let ptyAsked = false;
      let shell: SshShell | undefined;
      session.on('pty', (accept, _reject, info) => {
        ptyAsked = true;
        Object.assign(pty, { cols: info.cols || 80, rows: info.rows || 24, term: info.term || pty.term });
        accept?.();
      });
      session.on('window-change', (accept, _reject, info) => {
        shell?.resize(info.cols, info.rows);
        accept?.();
      });
      session.on('sftp', (accept) => {
        const sftp = accept();
        const { password } = login!;
        const sub = new SftpSubsystem({ app, user, remoteAddr: ip, lang: language.lang, password }, sftp);
        // The client's end of input ends the channel from this side too (else OpenSSH waits), with
        // exit status 0: scp counts a missing status as a failure. ssh2's SFTP object has no exit(),
        // its channel fields are those of Channel (node_modules/ssh2/lib/protocol/SFTP.js).
        sftp.on('end', () => {
          const ch = sftp as unknown as {
            _protocol: { exitStatus(id: number, code: number): void };
            outgoing: { id: number };
          };
          ch._protocol.exitStatus(ch.outgoing.id, 0);
          sftp.end();
        });
        sftp.on('close', () => void sub.close());
      });
      session.on('exec', (accept, _reject, info) => {
        const ch = accept();
        const lang = language.lang;
        const run = { app, user, target: login!.target, ip, lang, command: info.command };
        void execCommand(run, ch, ptyAsked ? pty : undefined).then((end) => {
          if ('signal' in end) ch.exit(end.signal);
          else ch.exit(end.code);
          ch.end();
        });
      });
      session.on('shell', (accept) => {
        const ch = accept();
        const lang = language.lang;
        shell = new SshShell(ch, { app, user, lang, remoteAddr: ip, pty });
        ch.on('close', () => shell?.close());
        if (!login!.target) return shell.start();
        void openDirect(app, user, login!.target, lang).then((picked) => {
          if (typeof picked === 'string') {
            ch.stderr.write(picked);
            ch.exit(1);
            ch.end();
            return;
          }
          return shell!.direct(picked.asset, picked.account);
        });
      });
    });
  });
}

/** `<account>@<asset>` or `<asset>` among the user's grants; a message when none or several fit. */
async function openDirect(app: FastifyInstance, user: AuthUser, target: string, lang: Language) {
  const found = await findDirectTarget(app, user.id, target);
  if (found === 'not_found') return sm(lang, 'ssh_direct_not_found', { target });
  if (found === 'ambiguous') return sm(lang, 'ssh_direct_ambiguous', { target });
  return found;
}

interface ExecRequest {
  app: FastifyInstance;
  user: AuthUser;
  /** `<account>@<asset>` from the login name, or empty. */
  target: string;
  ip: string;
  lang: Language;
  command: string;
}

/**
 * An exec request: the command runs on the target (`gateway/gatewayExec.ts`, which refuses it
 * without the upload and download actions or under reject/review command rules) once the login
 * rules let it (`nativeAccessRules.ts`; under a review rule the ticket opens or is reused and its
 * link is said instead). Without a target there is nothing to run it on; a copy program (legacy
 * `scp -O`, rsync) aimed at Gatehouse itself is told how to copy instead (the only use of the
 * command's first word here: it picks a message, it decides nothing).
 */
async function execCommand(r: ExecRequest, ch: ServerChannel, pty: Pty | undefined): Promise<ExecEnd> {
  const refuse = (message: string): ExecEnd => {
    ch.stderr.write(message);
    return { code: 1 };
  };
  if (!r.target) {
    const copy = /^\s*(scp|rsync)\b/.exec(r.command)?.[1];
    return refuse(
      sm(r.lang, copy ? (copy === 'scp' ? 'ssh_scp_legacy' : 'ssh_rsync_unsupported') : 'ssh_exec_unsupported'),
    );
  }
  const picked = await openDirect(r.app, r.user, r.target, r.lang);
  if (typeof picked === 'string') return refuse(picked);
  const { asset, account } = picked;
  if (!account.real) return refuse(sm(r.lang, 'ssh_exec_virtual', { account: account.name }));
  try {
    await checkNativeAccess(r.app, {
      userId: r.user.id,
      assetId: asset.id,
      username: account.username,
      alias: account.alias,
      ip: r.ip,
      lang: r.lang,
    });
    return await gatewayOf(r.app).runExec(
      {
        user: { id: r.user.id, name: r.user.name, username: r.user.username },
        assetId: asset.id,
        accountId: account.id,
        command: r.command,
        lang: r.lang,
        remoteAddr: r.ip,
        actions: account.actions,
        ...(pty ? { pty } : {}),
      },
      { stdin: ch, stdout: ch, stderr: ch.stderr },
    );
  } catch (e) {
    if (e instanceof NativeReviewPending || e instanceof GatewayError) return refuse(`${e.message}\r\n`);
    r.app.log.error({ err: (e as Error).message }, 'ssh exec failed');
    return refuse(sm(r.lang, 'ssh_connect_failed', { error: (e as Error).message }));
  }
}

const servers = new WeakMap<FastifyInstance, Server>();

/** The listening address of the app's SSH server (tests), or undefined when it is off. */
export function sshServerAddress(app: FastifyInstance): { port: number } | undefined {
  const a = servers.get(app)?.address();
  return a && typeof a === 'object' ? { port: a.port } : undefined;
}

/** Why the native SSH server could not listen, for the one line start-up prints. */
function sshListenError(e: NodeJS.ErrnoException, port: number, host: string): string {
  const off = 'or set GATEHOUSE_SSH_PORT=0 to run without native SSH';
  if (e.code === 'EADDRINUSE')
    return `GATEHOUSE_SSH_PORT: ${port} is already in use on ${host}; stop the other program, choose another port ${off}`;
  if (e.code === 'EACCES') return `GATEHOUSE_SSH_PORT: not allowed to listen on ${port}; use a port above 1023 ${off}`;
  return `GATEHOUSE_SSH_PORT: cannot listen on ${host}:${port} (${e.message}); ${off}`;
}

export function registerSshServer(app: FastifyInstance): void {
  const { config } = app.deps;
  if (!config.sshPort) return;
  app.addHook('onReady', async () => {
    const hostKey = await loadHostKey(app.deps.database.db, app.deps.secretBox, config.dataDir);
    const server = new ssh2.Server({ hostKeys: [hostKey] }, (client, info) => {
      // ssh2's server connection has setNoDelay at run time; its type declarations leave it out.
      (client as unknown as { setNoDelay(on: boolean): void }).setNoDelay(true);
      onConnection(app, client, info.ip);
    });
    servers.set(app, server);
    // A port that cannot be had stops start-up with one line naming the setting, as the HTTP port
    // does (main.ts): a Gatehouse that silently runs without its SSH gateway is worse.
    await new Promise<void>((resolve, reject) => {
      server.once('error', (e: NodeJS.ErrnoException) => {
        servers.delete(app);
        reject(
          Object.assign(new Error(sshListenError(e, config.sshPort, config.host)), { setting: 'GATEHOUSE_SSH_PORT' }),
        );
      });
      server.listen(config.sshPort, config.host, () => resolve());
    });
    app.log.info({ port: config.sshPort }, 'native SSH server listening');
  });
  app.addHook('onClose', async () => {
    const server = servers.get(app);
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  });
}
