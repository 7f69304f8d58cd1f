import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Language } from '@gatehouse/contract';
import { gatewayOf } from '../gatewayInstance.ts';
import { GatewayError } from '../gateway/gatewayError.ts';
import { DbLoginError, dbLogin, type DbLogin } from './dbLogin.ts';
import { dm } from './dbMessages.ts';
import { DbSession, recordFailedSession, type Decision, type StatementRun } from './dbSession.ts';
import { openDbLink, resolveDbTarget, type DbTarget } from './dbTarget.ts';
import { PgResponseScanner } from './pgResponses.ts';
import { connectPg, UpstreamRefused, type PgUpstream } from './pgUpstream.ts';
import {
  authRequest,
  CANCEL_REQUEST,
  errorResponse,
  GSSENC_REQUEST,
  message,
  MessageReader,
  PROTOCOL_3,
  readyForQuery,
  SSL_REQUEST,
  startupParams,
  WireError,
  type PgMessage,
} from './pgWire.ts';
import { acceptTls, proxyTlsContext } from './proxyTls.ts';
import { splitStatements } from './sqlText.ts';

/**
 * The PostgreSQL proxy (GATEHOUSE_POSTGRESQL_PORT, `dbServers.ts`): a client's connection is
 * signed in by the proxy itself (it asks the password in clear: the login is Gatehouse's,
 * `dbLogin.ts`), then relayed to the asset's server, logged in there with the vault's secret
 * (`pgUpstream.ts`). A client's SSLRequest is answered `S` and the connection goes on in TLS
 * (`proxyTls.ts`; `N` only when no certificate could be had); towards the server TLS is used when
 * the asset says `use_ssl`. Each statement is read whole: a simple query's text split
 * into statements, an extended query's Parse judged and its Execute recorded; the rules decide
 * before anything is sent (`DbSession.judge`). A refused simple query is answered by the proxy
 * (ErrorResponse + ReadyForQuery); a refused Parse drops the rest of its cycle up to Sync, whose
 * ReadyForQuery the refusal precedes. A CancelRequest (psql's Ctrl+C) with the key the proxy gave
 * is sent on to the server with the server's key.
 */
export const MAX_MESSAGE = 16 * 1024 * 1024;
const MAX_STARTUP = 10_000;
const LOGIN_TIMEOUT_MS = 30_000;

/** The keys the proxy handed out (its own) and the server's behind each, for CancelRequest. */
const cancelKeys = new Map<string, { target: DbTarget; key: Buffer; app: FastifyInstance }>();

/** Startup parameters passed on to the server (the rest are the proxy's or the client's own business). */
const PASSED = ['application_name', 'client_encoding', 'DateStyle', 'TimeZone', 'extra_float_digits', 'IntervalStyle'];

interface Cycle {
  /** A refusal to put before the cycle's ReadyForQuery (a refused Parse). */
  error?: Buffer;
  /** A cycle the server never saw (a refused simple query): answered by the proxy in its turn. */
  synthetic?: Buffer;
}

interface Pending {
  run: StatementRun;
  cycle: Cycle;
}

export interface PgServeOptions {
  loginFrom: 'WT' | 'ST';
  /** A connection signed in already (the web terminal's client on its private socket, `dbShell.ts`). */
  preauth?: Preauth;
}

export interface Preauth {
  login: DbLogin;
  /** The terminal session the statements are recorded under. */
  sessionId: string;
  onSession(s: DbSession): void;
}

export function servePg(app: FastifyInstance, client: Duplex, ip: string, opts: PgServeOptions): void {
  const front = new PgFront(app, client, ip, opts);
  front.run().catch((e: unknown) => {
    app.log.error({ err: (e as Error).message }, 'postgresql proxy connection failed');
    front.close();
  });
}

class PgFront {
  private readonly reader = new MessageReader(MAX_STARTUP);
  private waiting?: () => void;
  private closed = false;
  private lang: Language = 'en';
  private upstream?: PgUpstream;
  private session?: DbSession;
  private scanner?: PgResponseScanner;
  private myKey?: string;
  private readonly cycles: Cycle[] = [];
  private current: Cycle = {};
  private readonly pending: Pending[] = [];
  private readonly prepared = new Map<string, { text: string; decision: Decision }>();
  private readonly portals = new Map<string, { text: string; decision: Decision } | undefined>();
  private discarding = false;
  private txStatus = 'I';
  private failure = '';
  private tls = false;

  constructor(
    private readonly app: FastifyInstance,
    private client: Duplex,
    private readonly ip: string,
    private readonly opts: PgServeOptions,
  ) {
    this.listen(client);
  }

  private readonly onData = (b: Buffer) => {
    this.reader.push(b);
    this.waiting?.();
  };
  private readonly onGone = () => this.close();

  private listen(s: Duplex): void {
    s.on('data', this.onData);
    s.on('error', this.onGone);
    s.on('close', this.onGone);
  }

  /** SSLRequest: the rest of the conversation in TLS (`proxyTls.ts`), or `N` when there is no certificate. */
  private startTls(): void {
    const ctx = this.opts.preauth
      ? undefined
      : proxyTlsContext(this.app.deps.config.dataDir, this.app.deps.config.host);
    if (!ctx) {
      this.client.write('N');
      return;
    }
    const raw = this.client;
    raw.off('data', this.onData);
    raw.off('error', this.onGone);
    raw.off('close', this.onGone);
    raw.write('S');
    this.client = acceptTls(raw, ctx);
    this.listen(this.client);
  }

  /** The next whole client message (waits for bytes); undefined once the client is gone. */
  private async next(): Promise<PgMessage | undefined> {
    for (;;) {
      if (this.closed) return undefined;
      const m = this.reader.next();
      if (m) return m;
      await new Promise<void>((resolve) => (this.waiting = resolve));
      this.waiting = undefined;
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.waiting?.();
    this.client.destroy();
    this.upstream?.link.close();
    if (this.myKey) cancelKeys.delete(this.myKey);
    if (this.session) {
      if (this.failure) void this.session.fail(this.failure);
      void this.session.finish();
    }
  }

  /** A FATAL error to the client, then the end. */
  private fatal(code: string, text: string): void {
    if (!this.closed && this.client.writable) this.client.end(errorResponse(code, text, 'FATAL'));
    this.closed = true;
    this.waiting?.();
    setTimeout(() => this.client.destroy(), 1000).unref();
    this.upstream?.link.close();
    if (this.myKey) cancelKeys.delete(this.myKey);
    if (this.session) {
      void this.session.fail(text);
      void this.session.finish();
    }
  }

  async run(): Promise<void> {
    const timer = setTimeout(
      () => this.fatal('08P01', dm('en', 'db_bad_packet', { detail: 'login timed out' })),
      LOGIN_TIMEOUT_MS,
    );
    let params: Record<string, string>;
    try {
      params = await this.startup();
    } catch (e) {
      clearTimeout(timer);
      return this.wireFailed(e);
    }
    if (this.closed) return clearTimeout(timer);
    if (this.opts.preauth) {
      clearTimeout(timer);
      this.reader.typed = true;
      this.lang = this.opts.preauth.login.lang;
      return this.connect(this.opts.preauth.login, params);
    }
    this.client.write(authRequest(3));
    this.reader.typed = true;
    let password: string;
    try {
      const m = await this.next();
      if (!m) return clearTimeout(timer);
      if (m.type !== 'p') throw new WireError(`expected a password message, got "${m.type}"`);
      const z = m.body.indexOf(0);
      password = m.body.toString('utf8', 0, z < 0 ? m.body.length : z);
    } catch (e) {
      clearTimeout(timer);
      return this.wireFailed(e);
    }
    let login: DbLogin;
    try {
      login = await dbLogin(this.app, this.ip, 'postgresql', params.user ?? '', password);
    } catch (e) {
      clearTimeout(timer);
      if (!(e instanceof DbLoginError)) throw e;
      if (e.who) await this.recordFailed(e.who, e.message);
      return this.fatal('28P01', e.message);
    }
    clearTimeout(timer);
    this.lang = login.lang;
    await this.connect(login, params);
  }

  /** The startup phase: SSL and GSS requests refused, a cancel request sent on; the startup parameters. */
  private async startup(): Promise<Record<string, string>> {
    for (;;) {
      const m = await this.next().catch((e: unknown) => {
        // A startup message is small: a big "length" is another protocol's first bytes (`GET `, TLS...).
        if (e instanceof WireError && e.tooLarge) throw new WireError('not the PostgreSQL protocol 3.0');
        throw e;
      });
      if (!m) return {};
      if (m.body.length < 4) throw new WireError('short startup message');
      const code = m.body.readInt32BE(0);
      if (code === SSL_REQUEST && !this.tls) {
        this.tls = true;
        this.startTls();
        continue;
      }
      if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
        this.client.write('N');
        continue;
      }
      if (code === CANCEL_REQUEST) {
        await forwardCancel(m.body);
        this.close();
        return {};
      }
      if (code !== PROTOCOL_3) throw new WireError(`not the PostgreSQL protocol 3.0 (${code})`);
      return startupParams(m.body);
    }
  }

  /** A client that does not speak the protocol (or sends too much): an error in its terms, then the end. */
  private wireFailed(e: unknown): void {
    if (!(e instanceof WireError)) throw e;
    this.app.log.info({ from: this.ip, err: e.message }, 'postgresql proxy: bad client message');
    if (e.tooLarge) return this.fatal('54000', dm(this.lang, 'db_too_large', { ...e.tooLarge }));
    this.fatal('08P01', dm(this.lang, 'db_bad_packet', { detail: e.message }));
  }

  private async recordFailed(who: DbLogin, reason: string, target?: DbTarget): Promise<void> {
    await recordFailedSession(
      gatewayOf(this.app).deps(),
      {
        user: who.user,
        accountId: who.accountId,
        assetId: who.assetId,
        protocol: target?.protocol ?? 'postgresql',
        lang: who.lang,
        loginFrom: this.opts.loginFrom,
        remoteAddr: this.ip,
        ...(target ? { target } : {}),
      },
      reason,
    ).catch(() => undefined);
  }

  private async connect(login: DbLogin, params: Record<string, string>): Promise<void> {
    const { app } = this;
    const { db } = app.deps.database;
    const deps = gatewayOf(app).deps();
    let target: DbTarget | undefined;
    try {
      target = await resolveDbTarget(
        db,
        app.deps.secretBox,
        this.lang,
        'postgresql',
        login.assetId,
        login.accountId,
        login.typed,
      );
      const asked = params.database && params.database !== params.user ? params.database : '';
      const passed = Object.fromEntries(PASSED.filter((k) => params[k] !== undefined).map((k) => [k, params[k]!]));
      const tlsOpts = await assetTls(app, login.assetId);
      this.upstream = await connectPg(
        db,
        this.lang,
        target,
        { ...passed, ...(asked ? { database: asked } : {}) },
        tlsOpts,
      );
    } catch (e) {
      const text =
        e instanceof UpstreamRefused
          ? dm(this.lang, 'db_upstream_auth', { error: e.message })
          : e instanceof GatewayError
            ? e.message
            : dm(this.lang, 'db_upstream_failed', { error: (e as Error).message });
      if (!this.opts.preauth) await this.recordFailed(login, text, target);
      return this.fatal(e instanceof UpstreamRefused ? '28000' : '08006', text);
    }
    if (this.closed) return this.upstream.link.close();
    const up = this.upstream;
    this.session = new DbSession(deps, {
      user: login.user,
      accountId: login.accountId,
      target,
      lang: this.lang,
      loginFrom: this.opts.loginFrom,
      remoteAddr: this.ip,
      ...(this.opts.preauth ? { embedded: { sessionId: this.opts.preauth.sessionId } } : {}),
    });
    this.opts.preauth?.onSession(this.session);
    await this.session.start({
      end: (text) => (this.scanner?.atBoundary ? this.fatal('57P01', text) : this.close()),
      pause: () => this.client.pause(),
      resume: () => this.client.resume(),
      notice: (text) => {
        if (this.scanner?.atBoundary) this.client.write(errorResponse('01000', text, 'NOTICE', 'N'));
      },
    });
    const key = randomBytes(8);
    this.myKey = key.toString('hex');
    if (up.backendKey) cancelKeys.set(this.myKey, { target, key: up.backendKey, app });
    this.txStatus = up.status;
    this.client.write(Buffer.concat([authRequest(0), ...up.preamble, message('K', key), readyForQuery(up.status)]));
    this.relay(up);
    await this.pump();
  }

  /** The server's side to the client, with backpressure both ways. */
  private relay(up: PgUpstream): void {
    const session = this.session!;
    this.scanner = new PgResponseScanner({
      write: (b) => {
        if (!this.client.write(b)) {
          up.sock.pause();
          this.client.once('drain', () => up.sock.resume());
        }
      },
      completed: (o) => {
        const head = this.pending[0];
        if (!head || head.cycle !== (this.cycles[0] ?? this.current)) return;
        if (o.empty) return;
        this.pending.shift();
        session.done(head.run, o);
      },
      beforeReady: () => this.cycles[0]?.error,
      afterReady: (status) => {
        this.txStatus = status;
        const cycle = this.cycles.shift();
        while (this.pending[0] && this.pending[0].cycle === cycle)
          session.done(this.pending.shift()!.run, { error: 'not run: an earlier statement of its cycle failed' });
        const out: Buffer[] = [];
        while (this.cycles[0]?.synthetic) out.push(this.cycles.shift()!.synthetic!, readyForQuery(this.txStatus));
        return out;
      },
    });
    if (up.rest.length) this.scanner.feed(up.rest);
    up.sock.on('data', (b: Buffer) => this.scanner!.feed(b));
    up.sock.on('close', () => this.close());
    up.sock.on('error', () => this.close());
  }

  private send(b: Buffer): void {
    const sock = this.upstream!.sock;
    if (!sock.write(b)) {
      this.client.pause();
      sock.once('drain', () => this.client.resume());
    }
  }

  /** The client's messages in order, each judged before it is passed on. */
  private async pump(): Promise<void> {
    this.reader.typed = true;
    (this.reader as unknown as { max: number }).max = MAX_MESSAGE;
    for (;;) {
      let m: PgMessage | undefined;
      try {
        m = await this.next();
      } catch (e) {
        if (e instanceof WireError && e.tooLarge) this.failure = dm(this.lang, 'db_too_large', { ...e.tooLarge });
        return this.wireFailed(e);
      }
      if (!m) return;
      await this.onMessage(m);
    }
  }

  private refusal(text: string): Buffer {
    return errorResponse('42501', dm(this.lang, 'db_statement_refused', { message: text }));
  }

  private async onMessage(m: PgMessage): Promise<void> {
    const session = this.session!;
    const { type, body } = m;
    if (this.discarding && type !== 'S') return;
    if (type === 'Q') {
      const text = body.toString('utf8', 0, Math.max(0, body.length - 1));
      const verdict = await session.judge(splitStatements(text, 'postgresql'));
      if (this.closed) return;
      const cycle: Cycle = {};
      if (!verdict.ok) {
        const answer = this.refusal(verdict.message);
        if (!this.cycles.length) this.client.write(Buffer.concat([answer, readyForQuery(this.txStatus)]));
        else this.cycles.push({ synthetic: answer });
        return;
      }
      this.cycles.push(cycle);
      for (const run of verdict.runs) this.pending.push({ run, cycle });
      return this.send(m.raw);
    }
    if (type === 'P') {
      const name = readCString(body, 0);
      const query = readCString(body, name.end);
      const verdict = await session.judge(splitStatements(query.value, 'postgresql'), { record: false });
      if (this.closed) return;
      if (!verdict.ok) {
        this.current.error = this.refusal(verdict.message);
        this.discarding = true;
        return;
      }
      this.prepared.set(name.value, { text: query.value, decision: verdict.decision });
      return this.send(m.raw);
    }
    if (type === 'B') {
      const portal = readCString(body, 0);
      const stmt = readCString(body, portal.end);
      this.portals.set(portal.value, this.prepared.get(stmt.value));
      return this.send(m.raw);
    }
    if (type === 'E') {
      const portal = readCString(body, 0);
      const p = this.portals.get(portal.value);
      if (p?.text.trim())
        this.pending.push({ run: session.run(p.text, p.decision.risk, p.decision.verdict), cycle: this.current });
      return this.send(m.raw);
    }
    if (type === 'S') {
      this.cycles.push(this.current);
      this.current = {};
      this.discarding = false;
      return this.send(m.raw);
    }
    if (type === 'C') {
      const kind = String.fromCharCode(body[0] ?? 0);
      const name = readCString(body, 1).value;
      if (kind === 'S') this.prepared.delete(name);
      else this.portals.delete(name);
      return this.send(m.raw);
    }
    if (type === 'X') {
      this.send(m.raw);
      return this.close();
    }
    // Describe, Flush, COPY data, function calls: passed on.
    this.send(m.raw);
  }
}

function readCString(body: Buffer, start: number): { value: string; end: number } {
  const z = body.indexOf(0, start);
  if (z < 0) throw new WireError('unterminated string');
  return { value: body.toString('utf8', start, z), end: z + 1 };
}

/** The asset's TLS settings towards its server. */
async function assetTls(app: FastifyInstance, assetId: string): Promise<{ ca?: string; insecure: boolean }> {
  const a = await app.deps.database.db
    .selectFrom('assets_asset')
    .select(['ca_cert', 'allow_invalid_cert'])
    .where('id', '=', assetId)
    .executeTakeFirst();
  return { ...(a?.ca_cert ? { ca: a.ca_cert } : {}), insecure: Boolean(a?.allow_invalid_cert) };
}

/** psql's Ctrl+C: a new connection with the key the proxy gave; sent on with the server's key. */
async function forwardCancel(body: Buffer): Promise<void> {
  const entry = cancelKeys.get(body.subarray(4, 12).toString('hex'));
  if (!entry) return;
  const link = await openDbLink(entry.app.deps.database.db, 'en', entry.target).catch(() => undefined);
  if (!link) return;
  const msg = Buffer.alloc(16);
  msg.writeInt32BE(16, 0);
  msg.writeInt32BE(CANCEL_REQUEST, 4);
  entry.key.copy(msg, 8, 0, 8);
  link.sock.end(msg);
  setTimeout(() => link.close(), 2000).unref();
}
