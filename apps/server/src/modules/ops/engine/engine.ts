import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { DB } from '../../../platform/db/schema.ts';
import { kickQueue, QUEUE_KICKED as KICKED } from '../../../platform/bus/queueKick.ts';
import { openTaskLog, type TaskLogWriter } from '../taskLog.ts';
import type { Runner } from './runner.ts';
import { startScheduler, type ScheduleSource } from './scheduler.ts';

/**
 * The execution engine (docs/ops.md, "Jobs and the execution engine"): executions are rows of
 * `ops_jobexecution`, and the table is the queue. A new execution is `pending`; every instance is
 * woken through the bus (Redis pub/sub when shared) and claims pending rows by a conditional update
 * (`pending` -> `running` with its instance id), so exactly one instance runs each, up to
 * `JOB_EXECUTIONS` at a time. A running instance writes a heartbeat key in the cache every
 * `JOB_HEARTBEAT_MS`; an execution whose instance's key has expired (that instance died) is marked
 * failed by whichever instance looks next (at start-up and at every heartbeat). The handler (the
 * job centre's) does the work and answers the outcome; runners plug in by name.
 */
export type ExecutionRow = Selectable<DB['ops_jobexecution']>;
export type ExecutionStatus = 'success' | 'failed' | 'timeout';

export interface ExecutionOutcome {
  status: ExecutionStatus;
  summary: Record<string, unknown>;
}

export interface ExecutionContext {
  signal: AbortSignal;
  log: TaskLogWriter;
  /** Hosts to run at the same time (`JOB_HOSTS`). */
  parallel: number;
  runner(name: string): Runner | undefined;
}

export type ExecutionHandler = (exec: ExecutionRow, ctx: ExecutionContext) => Promise<ExecutionOutcome>;

/**
 * A durable queue of a module's own table (the mail outbox, notifications/mail/outbox.ts): the
 * engine drains it at start, at every heartbeat (its retries come due there) and when any instance
 * kicks it; the drain claims its rows itself, so instances never send one twice.
 */
export type QueueDrain = () => Promise<void>;

/**
 * What an execution kind leaves to settle when its run ended without its handler finishing (the
 * instance died, or the handler threw or was stopped): e.g. account automations find which secret
 * a host took. Called once per such execution by the instance that ended it.
 */
export type ExecutionRecovery = (exec: ExecutionRow) => Promise<void>;

const QUEUED = 'ops.jobs.queued';

const aliveKey = (instance: string) => `gh:jobs:alive:${instance}`;

export class JobEngine {
  readonly instanceId = randomUUID();
  private handler?: ExecutionHandler;
  /** Handlers of other execution kinds, by `job_type` (account automations...). */
  private readonly kinds = new Map<string, { handler: ExecutionHandler; recover?: ExecutionRecovery }>();
  private readonly runners = new Map<string, Runner>();
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private timers: NodeJS.Timeout[] = [];
  private stopSchedulers: (() => void)[] = [];
  private readonly schedules: ScheduleSource[] = [];
  private unsubscribe?: () => Promise<void>;
  private unsubscribeKicks?: () => Promise<void>;
  private readonly queues = new Map<string, { drain: QueueDrain; busy?: Promise<void>; again: boolean }>();
  private pumping = false;
  private again = false;
  private stopped = false;
  /** Set by `halt()`: the instance acts as if it died (tests of the survivor's sweep). */
  private halted = false;

  constructor(private readonly app: FastifyInstance) {}

  private get db() {
    return this.app.deps.database.db;
  }
  private get cfg() {
    return this.app.deps.config.jobs;
  }

  /** The job centre's handler: what an execution does. */
  setHandler(h: ExecutionHandler): void {
    this.handler = h;
  }

  /** The handler of executions whose `job_type` is `jobType` (the job centre's handles the others). */
  setKindHandler(jobType: string, handler: ExecutionHandler, recover?: ExecutionRecovery): void {
    this.kinds.set(jobType, { handler, ...(recover ? { recover } : {}) });
  }

  private handlerOf(exec: ExecutionRow): ExecutionHandler | undefined {
    return this.kinds.get(exec.job_type)?.handler ?? this.handler;
  }

  private async recover(exec: ExecutionRow): Promise<void> {
    const r = this.kinds.get(exec.job_type)?.recover;
    if (!r) return;
    await r(exec).catch((e: Error) =>
      this.app.log.error({ execution: exec.id, err: e.message }, 'execution recovery failed'),
    );
  }

  /** A runner kind (`ssh`, `ansible`...) the handler may hand hosts to. */
  registerRunner(r: Runner): void {
    this.runners.set(r.name, r);
  }

  runner(name: string): Runner | undefined {
    return this.runners.get(name);
  }

  /** Periodic work: each due tick fires once across instances (docs/ops.md). Sources add up. */
  setSchedules(source: ScheduleSource): void {
    this.schedules.push(source);
  }

  /** A queue drained by this engine (see QueueDrain). */
  addQueue(name: string, drain: QueueDrain): void {
    this.queues.set(name, { drain, again: false });
  }

  /** Tells every instance that queue `name` has work (call after its rows are committed). */
  async kick(name: string): Promise<void> {
    await kickQueue(this.app.deps.bus, name);
    void this.drain(name);
  }

  /** Runs a queue's drain, one at a time per instance; a kick during a drain drains again after it. */
  private drain(name: string): Promise<void> {
    const q = this.queues.get(name);
    if (!q || this.stopped || this.halted) return Promise.resolve();
    if (q.busy) {
      q.again = true;
      return q.busy;
    }
    const run = async () => {
      do {
        q.again = false;
        try {
          await q.drain();
        } catch (e) {
          this.app.log.error({ queue: name, err: (e as Error).message }, 'queue drain failed');
        }
      } while (q.again && !this.stopped && !this.halted);
    };
    q.busy = run().finally(() => (q.busy = undefined));
    return q.busy;
  }

  private drainAll(): Promise<void> {
    return Promise.all([...this.queues.keys()].map((n) => this.drain(n))).then(() => undefined);
  }

  async start(): Promise<void> {
    await this.beat();
    await this.sweepDead();
    this.unsubscribe = await this.app.deps.bus.subscribe(QUEUED, () => void this.pump());
    this.unsubscribeKicks = await this.app.deps.bus.subscribe(KICKED, (m) => {
      const name = (m as { name?: unknown } | null)?.name;
      if (typeof name === 'string') void this.drain(name);
    });
    void this.drainAll();
    const every = setInterval(() => {
      void this.beat()
        .then(() => this.sweepDead())
        .then(() => this.pump())
        .then(() => this.drainAll())
        .catch((e: Error) => this.app.log.error({ err: e.message }, 'job engine heartbeat failed'));
    }, this.cfg.heartbeatMs);
    every.unref();
    this.timers.push(every);
    this.stopSchedulers = this.schedules.map((s) => startScheduler(this.app, s));
    void this.pump();
  }

  /** Tells every instance that an execution waits (call after its row is committed). */
  async queued(): Promise<void> {
    await this.app.deps.bus.publish(QUEUED, { at: Date.now() });
    void this.pump();
  }

  private async beat(): Promise<void> {
    if (this.halted) return;
    const ttl = Math.max(1, Math.ceil((3 * this.cfg.heartbeatMs) / 1000));
    await this.app.deps.cache.set(aliveKey(this.instanceId), 1, ttl);
  }

  /** Marks failed the running executions of instances whose heartbeat is gone. */
  async sweepDead(): Promise<number> {
    if (this.halted) return 0;
    const rows = await this.db.selectFrom('ops_jobexecution').selectAll().where('status', '=', 'running').execute();
    let n = 0;
    const alive = new Map<string, boolean>();
    for (const r of rows) {
      const inst = r.instance_id ?? '';
      if (inst === this.instanceId) continue;
      if (!alive.has(inst)) alive.set(inst, Boolean(inst && (await this.app.deps.cache.get(aliveKey(inst)))));
      if (alive.get(inst)) continue;
      const done = await this.finish(r.id, r.date_start, 'running', {
        status: 'failed',
        summary: { error: `The instance running it (${inst || 'unknown'}) stopped` },
      });
      if (!done) continue;
      n += 1;
      const log = await openTaskLog(this.app.deps.cache, r.id, r.creator_id);
      await log.write(`!!! The instance running this execution stopped; it is marked failed by ${this.instanceId}`);
      await log.end();
      this.app.log.warn({ execution: r.id, instance: inst }, 'execution of a dead instance marked failed');
      await this.recover(r);
    }
    return n;
  }

  /** Ends an execution still in `from` state; false when another instance got there first. */
  private async finish(id: string, dateStart: string | null, from: string, o: ExecutionOutcome): Promise<boolean> {
    const now = new Date();
    const cost = dateStart ? (now.getTime() - new Date(dateStart).getTime()) / 1000 : 0;
    const r = await this.db
      .updateTable('ops_jobexecution')
      .set({
        status: o.status,
        is_finished: true,
        is_success: o.status === 'success',
        date_finished: now.toISOString(),
        time_cost: Math.max(0, cost),
        summary: JSON.stringify(o.summary),
      })
      .where('id', '=', id)
      .where('status', '=', from)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Claims pending executions while this instance has room. */
  private async pump(): Promise<void> {
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.again = false;
        while (
          !this.stopped &&
          !this.halted &&
          (this.handler || this.kinds.size) &&
          this.running.size < this.cfg.executions
        ) {
          const exec = await this.claim();
          if (!exec) break;
          this.launch(exec);
        }
      } while (this.again);
    } catch (e) {
      this.app.log.error({ err: (e as Error).message }, 'job engine could not claim work');
    } finally {
      this.pumping = false;
    }
  }

  private async claim(): Promise<ExecutionRow | undefined> {
    const candidates = await this.db
      .selectFrom('ops_jobexecution')
      .select('id')
      .where('status', '=', 'pending')
      .orderBy('date_created')
      .limit(5)
      .execute();
    for (const c of candidates) {
      const started = new Date().toISOString();
      const r = await this.db
        .updateTable('ops_jobexecution')
        .set({ status: 'running', instance_id: this.instanceId, date_start: started })
        .where('id', '=', c.id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1)
        return this.db.selectFrom('ops_jobexecution').selectAll().where('id', '=', c.id).executeTakeFirstOrThrow();
    }
    return undefined;
  }

  private launch(exec: ExecutionRow): void {
    const abort = new AbortController();
    const done = this.execute(exec, abort).finally(() => {
      this.running.delete(exec.id);
      void this.pump();
    });
    this.running.set(exec.id, { abort, done });
  }

  private async execute(exec: ExecutionRow, abort: AbortController): Promise<void> {
    const log = await openTaskLog(this.app.deps.cache, exec.id, exec.creator_id);
    this.app.log.info({ execution: exec.id, job: exec.job_id, trigger: exec.trigger }, 'execution started');
    let outcome: ExecutionOutcome;
    let settled = true;
    try {
      const handler = this.handlerOf(exec);
      if (!handler) throw new Error(`no handler for executions of type ${exec.job_type}`);
      outcome = await handler(exec, {
        signal: abort.signal,
        log,
        parallel: this.cfg.hosts,
        runner: (name) => this.runner(name),
      });
    } catch (e) {
      settled = false;
      outcome = { status: 'failed', summary: { error: (e as Error).message } };
      await log.write(`!!! ${(e as Error).message}`).catch(() => undefined);
    }
    if (this.halted) return;
    if (!settled || abort.signal.aborted) await this.recover(exec);
    if (abort.signal.aborted && outcome.status === 'success')
      outcome = { status: 'failed', summary: { ...outcome.summary, error: 'Stopped' } };
    await this.finish(exec.id, exec.date_start, 'running', outcome);
    this.app.log.info({ execution: exec.id, status: outcome.status }, 'execution finished');
    await log.write(`>>> Execution ${outcome.status}`);
    await log.end();
  }

  /** Stops claiming, aborts what runs and waits for it to end (the app closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const s of this.stopSchedulers) s();
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await this.unsubscribe?.().catch(() => undefined);
    await this.unsubscribeKicks?.().catch(() => undefined);
    for (const r of this.running.values()) r.abort.abort();
    await Promise.allSettled([
      ...[...this.running.values()].map((r) => r.done),
      ...[...this.queues.values()].map((q) => q.busy),
    ]);
    if (!this.halted) await this.app.deps.cache.delete(aliveKey(this.instanceId)).catch(() => undefined);
  }

  /**
   * For tests: this instance behaves as if its process died now: no more heartbeats, writes or
   * claims; its executions stay `running` for a survivor to find.
   */
  halt(): void {
    this.halted = true;
    for (const s of this.stopSchedulers) s();
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    for (const r of this.running.values()) r.abort.abort();
  }
}
