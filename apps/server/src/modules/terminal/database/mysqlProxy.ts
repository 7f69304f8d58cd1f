import type { Duplex } from 'node:stream';
import type { SecureContext } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import type { Language } from '@gatehouse/contract';
import { gatewayOf } from '../gatewayInstance.ts';
import { GatewayError } from '../gateway/gatewayError.ts';
import { DbLoginError, dbLogin, type DbLogin } from './dbLogin.ts';
import { dm } from './dbMessages.ts';
import { DbSession, recordFailedSession, type Decision, type StatementRun } from './dbSession.ts';
import { resolveDbTarget, type DbTarget } from './dbTarget.ts';
import { MyResponseScanner, type Expect } from './mysqlResponses.ts';
import { connectMysql, type MyUpstream } from './mysqlUpstream.ts';
import {
  COM,
  errPacket,
  handshakeV10,
  MyWireError,
  newScramble,
  okPacket,
  packet,
  PacketReader,
  parseHandshakeResponse,
  type Packet,
} from './mysqlWire.ts';
import type { Preauth } from './pgProxy.ts';
import { UpstreamRefused } from './pgUpstream.ts';
import { acceptTls, proxyTlsContext } from './proxyTls.ts';
import { normaliseStatement, splitStatements } from './sqlText.ts';

/**
 * The MySQL/MariaDB proxy (GATEHOUSE_MYSQL_PORT, `dbServers.ts`): the client is greeted by the
 * proxy, which asks its password in clear (`mysql_clear_password`, by an auth switch when the
 * client answered for another plugin: the login is Gatehouse's, `dbLogin.ts`), then the asset's
 * server is logged in with the vault's secret (`mysqlUpstream.ts`) and the connection relayed.
 * TLS from the client is offered (CLIENT_SSL, `proxyTls.ts`) and the password then travels inside
 * it; towards the server it is used when the asset says `use_ssl`. Statements are read whole:
 * COM_QUERY's text split into statements, COM_STMT_PREPARE judged and each COM_STMT_EXECUTE
 * recorded, COM_INIT_DB as `USE`; a refused one is answered by the proxy with an ERR packet and
 * never sent. Commands that would step around the records (COM_CHANGE_USER, replication, LOAD DATA
 * LOCAL) are refused.
 */
export const MAX_PACKET = 16 * 1024 * 1024;
const LOGIN_TIMEOUT_MS = 30_000;
let connectionIds = 1;

interface Prepared {
  text: string;
  decision: Decision;
}

interface Waiting {
  kind: Expect;
  runs: StatementRun[];
  /** A prepare's statement text, kept under the id the server answers. */
  prepare?: Prepared;
}

export function serveMysql(
  app: FastifyInstance,
  client: Duplex,
  ip: string,
  opts: { loginFrom: 'WT' | 'ST'; preauth?: Preauth },
): void {
  const front = new MyFront(app, client, ip, opts.loginFrom, opts.preauth);
  front.run().catch((e: unknown) => {
    app.log.error({ err: (e as Error).message }, 'mysql proxy connection failed');
    front.close();
  });
}

class MyFront {
  private readonly reader = new PacketReader(MAX_PACKET);
  private wake?: () => void;
  private closed = false;
  private lang: Language = 'en';
  private upstream?: MyUpstream;
  private session?: DbSession;
  private scanner?: MyResponseScanner;
  private readonly waiting: Waiting[] = [];
  private readonly prepared = new Map<number, Prepared>();
  private lastSeq = 0;

  constructor(
    private readonly app: FastifyInstance,
    private client: Duplex,
    private readonly ip: string,
    private readonly loginFrom: 'WT' | 'ST',
    private readonly preauth?: Preauth,
  ) {
    this.listen(client);
  }

  private readonly onData = (b: Buffer) => {
    this.reader.push(b);
    this.wake?.();
  };
  private readonly onGone = () => this.close();

  private listen(s: Duplex): void {
    s.on('data', this.onData);
    s.on('error', this.onGone);
    s.on('close', this.onGone);
  }

  /** The client's SSLRequest: the rest of the conversation in TLS (`proxyTls.ts`). */
  private startTls(ctx: SecureContext): void {
    const raw = this.client;
    raw.off('data', this.onData);
    raw.off('error', this.onGone);
    raw.off('close', this.onGone);
    this.client = acceptTls(raw, ctx, this.reader.rest());
    this.listen(this.client);
  }

  private async next(): Promise<Packet | undefined> {
    for (;;) {
      if (this.closed) return undefined;
      const p = this.reader.next();
      if (p) {
        this.lastSeq = p.seq;
        return p;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.wake?.();
    this.client.destroy();
    this.upstream?.link.close();
    void this.session?.finish();
  }

  /** An ERR packet to the client, then the end (the session, if any, recorded as failed). */
  private fatal(errno: number, sqlState: string, text: string, seq = this.lastSeq + 1): void {
    if (!this.closed && this.client.writable) this.client.end(errPacket(seq, errno, sqlState, text));
    this.closed = true;
    this.wake?.();
    setTimeout(() => this.client.destroy(), 1000).unref();
    this.upstream?.link.close();
    if (this.session) {
      void this.session.fail(text);
      void this.session.finish();
    }
  }

  private wireFailed(e: unknown): void {
    if (!(e instanceof MyWireError)) throw e;
    this.app.log.info({ from: this.ip, err: e.message }, 'mysql proxy: bad client packet');
    if (e.tooLarge) return this.fatal(1153, '08S01', dm(this.lang, 'db_too_large', { ...e.tooLarge }));
    this.fatal(1043, '08S01', dm(this.lang, 'db_bad_packet', { detail: e.message }));
  }

  async run(): Promise<void> {
    const timer = setTimeout(
      () => this.fatal(1043, '08S01', dm('en', 'db_bad_packet', { detail: 'login timed out' })),
      LOGIN_TIMEOUT_MS,
    );
    const scramble = newScramble();
    const ctx = this.preauth ? undefined : proxyTlsContext(this.app.deps.config.dataDir, this.app.deps.config.host);
    this.client.write(packet(0, handshakeV10(connectionIds++ & 0x7fffffff, scramble, Boolean(ctx))));
    let hello;
    let password: string;
    try {
      this.reader.max = 64 * 1024;
      const p = await this.next().catch((e: unknown) => {
        // A handshake response is small: a big "length" is another protocol's first bytes (`GET `...).
        if (e instanceof MyWireError && e.tooLarge) throw new MyWireError('not the MySQL client protocol');
        throw e;
      });
      if (!p) return clearTimeout(timer);
      if (p.seq !== 1) throw new MyWireError('not the MySQL client protocol');
      hello = parseHandshakeResponse(p.payload);
      if (hello.ssl) {
        if (!ctx) throw new MyWireError('TLS is not offered by this proxy');
        this.startTls(ctx);
        const secured = await this.next();
        if (!secured) return clearTimeout(timer);
        hello = parseHandshakeResponse(secured.payload);
        if (hello.ssl) throw new MyWireError('a second SSLRequest');
      }
      let auth = hello.auth;
      if (this.preauth) {
        clearTimeout(timer);
        this.lang = this.preauth.login.lang;
        return await this.connect(this.preauth.login, hello);
      }
      if (hello.plugin !== 'mysql_clear_password') {
        // Ask for the password in clear (the only way the proxy can check it against Gatehouse).
        this.client.write(
          packet(
            this.lastSeq + 1,
            Buffer.concat([Buffer.from([0xfe]), Buffer.from('mysql_clear_password\0'), scramble, Buffer.from([0])]),
          ),
        );
        const answer = await this.next();
        if (!answer) return clearTimeout(timer);
        auth = answer.payload;
      }
      const z = auth.indexOf(0);
      password = auth.toString('utf8', 0, z < 0 ? auth.length : z);
    } catch (e) {
      clearTimeout(timer);
      return this.wireFailed(e);
    }
    let login: DbLogin;
    try {
      login = await dbLogin(this.app, this.ip, 'mysql', hello.user, password);
    } catch (e) {
      clearTimeout(timer);
      if (!(e instanceof DbLoginError)) throw e;
      if (e.who) await this.recordFailed(e.who, e.message);
      return this.fatal(1045, '28000', e.message);
    }
    clearTimeout(timer);
    this.lang = login.lang;
    await this.connect(login, hello);
  }

  private async recordFailed(who: DbLogin, reason: string, target?: DbTarget): Promise<void> {
    await recordFailedSession(
      gatewayOf(this.app).deps(),
      {
        user: who.user,
        accountId: who.accountId,
        assetId: who.assetId,
        protocol: target?.protocol ?? 'mysql',
        lang: who.lang,
        loginFrom: this.loginFrom,
        remoteAddr: this.ip,
        ...(target ? { target } : {}),
      },
      reason,
    ).catch(() => undefined);
  }

  private async connect(login: DbLogin, hello: { caps: number; charset: number; database: string }): Promise<void> {
    const { app } = this;
    const { db } = app.deps.database;
    let target: DbTarget | undefined;
    try {
      target = await resolveDbTarget(
        db,
        app.deps.secretBox,
        this.lang,
        'mysql',
        login.assetId,
        login.accountId,
        login.typed,
      );
      const a = await db
        .selectFrom('assets_asset')
        .select(['ca_cert', 'allow_invalid_cert'])
        .where('id', '=', login.assetId)
        .executeTakeFirst();
      this.upstream = await connectMysql(db, this.lang, target, hello, {
        ...(a?.ca_cert ? { ca: a.ca_cert } : {}),
        insecure: Boolean(a?.allow_invalid_cert),
      });
    } catch (e) {
      const text =
        e instanceof UpstreamRefused
          ? dm(this.lang, 'db_upstream_auth', { error: e.message })
          : e instanceof GatewayError
            ? e.message
            : dm(this.lang, 'db_upstream_failed', { error: (e as Error).message });
      if (!this.preauth) await this.recordFailed(login, text, target);
      return this.fatal(
        e instanceof UpstreamRefused ? 1045 : 2003,
        e instanceof UpstreamRefused ? '28000' : 'HY000',
        text,
      );
    }
    if (this.closed) return this.upstream.link.close();
    this.session = new DbSession(gatewayOf(app).deps(), {
      user: login.user,
      accountId: login.accountId,
      target,
      lang: this.lang,
      loginFrom: this.loginFrom,
      remoteAddr: this.ip,
      ...(this.preauth ? { embedded: { sessionId: this.preauth.sessionId } } : {}),
    });
    this.preauth?.onSession(this.session);
    await this.session.start({
      end: (text) =>
        this.scanner?.atBoundary && this.scanner.idle ? this.fatal(1927, '70100', text, 0) : this.close(),
      pause: () => this.client.pause(),
      resume: () => this.client.resume(),
    });
    this.client.write(okPacket(this.lastSeq + 1));
    this.relay(this.upstream);
    this.reader.max = MAX_PACKET;
    for (;;) {
      let p: Packet | undefined;
      try {
        p = await this.next();
      } catch (e) {
        return this.wireFailed(e);
      }
      if (!p) return;
      await this.onCommand(p);
    }
  }

  private relay(up: MyUpstream): void {
    const session = this.session!;
    this.scanner = new MyResponseScanner({
      write: (b) => {
        if (!this.client.write(b)) {
          up.sock.pause();
          this.client.once('drain', () => up.sock.resume());
        }
      },
      completed: (o) => {
        const run = this.waiting[0]?.runs.shift();
        if (run) session.done(run, o);
      },
      prepared: (o) => {
        const w = this.waiting[0];
        if (!w?.prepare) return;
        if (o.id !== undefined) this.prepared.set(o.id, w.prepare);
        else
          session.done(session.run(w.prepare.text, w.prepare.decision.risk, w.prepare.decision.verdict), {
            error: o.error ?? '',
          });
      },
      done: () => {
        const w = this.waiting.shift();
        for (const run of w?.runs ?? []) session.done(run, { error: 'not run: an earlier statement failed' });
      },
    });
    if (up.rest.length) this.scanner.feed(up.rest);
    up.sock.on('data', (b: Buffer) => this.scanner!.feed(b));
    up.sock.on('close', () => this.close());
    up.sock.on('error', () => this.close());
  }

  private send(p: Packet, w?: Waiting): void {
    if (w) {
      this.waiting.push(w);
      this.scanner!.expect(w.kind);
    }
    const sock = this.upstream!.sock;
    if (!sock.write(p.raw)) {
      this.client.pause();
      sock.once('drain', () => this.client.resume());
    }
  }

  private refuse(message: string): void {
    this.client.write(errPacket(1, 1142, '42000', dm(this.lang, 'db_statement_refused', { message })));
  }

  private async onCommand(p: Packet): Promise<void> {
    const session = this.session!;
    const cmd = p.payload[0];
    const text = () => p.payload.toString('utf8', 1);
    if (cmd === COM.QUERY) {
      const verdict = await session.judge(splitStatements(text(), 'mysql'));
      if (this.closed) return;
      if (!verdict.ok) return this.refuse(verdict.message);
      return this.send(p, { kind: 'query', runs: verdict.runs });
    }
    if (cmd === COM.STMT_PREPARE) {
      const sql = text();
      const verdict = await session.judge(splitStatements(sql, 'mysql'), { record: false });
      if (this.closed) return;
      if (!verdict.ok) return this.refuse(verdict.message);
      return this.send(p, { kind: 'prepare', runs: [], prepare: { text: sql.trim(), decision: verdict.decision } });
    }
    if (cmd === COM.STMT_EXECUTE) {
      const id = p.payload.length >= 5 ? p.payload.readUInt32LE(1) : -1;
      const s = this.prepared.get(id);
      const run = session.run(s?.text ?? `(prepared statement ${id})`, s?.decision.risk, s?.decision.verdict);
      return this.send(p, { kind: 'query', runs: [run] });
    }
    if (cmd === COM.STMT_CLOSE) {
      if (p.payload.length >= 5) this.prepared.delete(p.payload.readUInt32LE(1));
      return this.send(p);
    }
    if (cmd === COM.STMT_SEND_LONG_DATA) return this.send(p);
    if (cmd === COM.STMT_FETCH) return this.send(p, { kind: 'fetch', runs: [] });
    if (cmd === COM.INIT_DB) {
      const use = `USE \`${text().replace(/`/g, '``')}\``;
      const verdict = await session.judge([{ text: use, normalised: normaliseStatement(use, 'mysql') }]);
      if (this.closed) return;
      if (!verdict.ok) return this.refuse(verdict.message);
      return this.send(p, { kind: 'simple', runs: verdict.runs });
    }
    if (
      cmd === COM.PING ||
      cmd === COM.RESET_CONNECTION ||
      cmd === COM.SET_OPTION ||
      cmd === COM.STMT_RESET ||
      cmd === COM.STATISTICS
    )
      return this.send(p, { kind: 'simple', runs: [] });
    if (cmd === COM.FIELD_LIST) return this.send(p, { kind: 'fieldlist', runs: [] });
    if (cmd === COM.QUIT) {
      this.send(p);
      return this.close();
    }
    this.client.write(
      errPacket(1, 1047, '08S01', dm(this.lang, 'db_unsupported_command', { command: `0x${(cmd ?? 0).toString(16)}` })),
    );
  }
}
