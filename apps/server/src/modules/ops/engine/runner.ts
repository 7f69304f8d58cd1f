/**
 * The one runner interface of the execution engine (docs/ops.md, "Jobs and the execution engine"):
 * every way of running work on assets (the gateway's own SSH exec for `shell`/`raw`, Ansible for
 * modules and playbooks, later database protocols) takes the same plan and answers the same result
 * shape, per host. The engine has already applied the rules (grants, run-as, command filter,
 * blacklist) before a runner sees a host: a runner only runs.
 *
 * Plugging one in: `app.jobEngine.registerRunner(runner)` at registration (`ops/engine/index.ts`
 * decorates the app before the job centre registers). The job centre hands `shell` and `raw` to
 * the runner named `ssh` and every other module to the one named `ansible`; hosts of database
 * assets come with their database protocol's address and the account's password in `connection`,
 * hosts of other assets with their SSH address (and `gateway` when behind a domain gateway).
 */

/** How a host is reached: the address, the SSH port and the account's credentials, unsealed. */
export interface RunnerConnection {
  host: string;
  port: number;
  username: string;
  password?: string;
  privateKey?: string;
  passphrase?: string;
  /**
   * The host key to accept and no other (`<type> <base64>`), for runners that make their own SSH
   * connections: probed and checked against the trusted one before the run (jobs/hostKeys.ts).
   */
  hostKey?: string;
  /** The domain gateway to jump through (an SSH `ProxyJump`), when the asset has a domain. */
  gateway?: {
    /** As the host's `hostKey`, for the gateway. */
    hostKey?: string;
    /** The gateway's asset id (its host key is trusted per asset). */
    assetId: string;
    host: string;
    port: number;
    username: string;
    password?: string;
    privateKey?: string;
    passphrase?: string;
  };
}

/** One host of a run: the asset, the account chosen by run-as, and how to reach it. */
export interface RunnerHost {
  /** The asset's id: results are keyed by it. */
  assetId: string;
  /** `name(address)`: the prefix of the host's output lines and the inventory's host name. */
  name: string;
  /** The platform's type (`linux`, `windows`, `mysql`...), for modules that depend on it. */
  platformType: string;
  account: { id: string; name: string; username: string; privileged: boolean };
  connection: RunnerConnection;
  /** A database asset's database name (mysql, postgresql, sqlserver modules). */
  dbName?: string;
}

/** What to run: a module with its arguments, or a playbook's directory. */
export type RunnerWork =
  { kind: 'module'; module: string; args: string } | { kind: 'playbook'; dir: string; entry?: string };

export interface RunnerPlan {
  /** The execution's id (also its task log's id). */
  executionId: string;
  hosts: RunnerHost[];
  work: RunnerWork;
  /** Seconds per host; -1: no limit. */
  timeout: number;
  /** Working directory on the host ('' : the account's home). */
  chdir: string;
  /** Variables the job's parameters define (`{{ name }}` in args, extra vars for Ansible). */
  variables: Record<string, string>;
  /** Hosts run at the same time (the instance's setting). */
  parallel: number;
  /** Aborted when the execution is stopped or the instance closes. */
  signal: AbortSignal;
  /** One line of one host's output, as it comes (the engine prefixes and writes it to the task log). */
  output(assetId: string, line: string): void;
}

export type HostStatus = 'ok' | 'failed' | 'timeout' | 'skipped';

/** The result of one host, the same for every runner. */
export interface HostResult {
  assetId: string;
  status: HostStatus;
  /** Why it failed, timed out or was skipped (empty when ok). */
  reason: string;
  /** The host's output (bounded by the runner, the tail kept). */
  output: string;
  /** Exit code when the runner knows it. */
  exitCode?: number;
  /** Seconds on this host. */
  timeCost: number;
}

export interface Runner {
  /** `ssh` (the gateway's own SSH), `ansible`... */
  readonly name: string;
  /**
   * Whether this runner can run `work` now; a reason when not (e.g. "ansible-playbook is not
   * installed"), said per asset by the engine.
   */
  available(work: RunnerWork): Promise<{ ok: true } | { ok: false; reason: string }>;
  /** Runs the plan; one result per host of the plan, in any order. Never throws for one host's failure. */
  run(plan: RunnerPlan): Promise<HostResult[]>;
}

/** Modules the gateway's SSH runner runs itself; every other module goes to the Ansible runner. */
export const SSH_MODULES = ['shell', 'raw'] as const;
