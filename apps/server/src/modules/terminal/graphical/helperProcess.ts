import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/**
 * A helper program of one graphical session (a virtual display, the RDP client, x11vnc): started
 * with an argument list (never a shell), under `prlimit` (address space and open files capped, no
 * core files), in a process group of its own so that `stop()` ends it and anything it started:
 * SIGTERM to the group, SIGKILL after STOP_GRACE_MS.
 */
const STOP_GRACE_MS = 2000;

export interface HelperLimits {
  /** Address space, bytes. */
  memory: number;
  files?: number;
}

export class HelperProcess {
  readonly child: ChildProcess;
  private tail = '';
  private exited: Promise<void>;

  constructor(cmd: string, args: string[], limits: HelperLimits, opts: SpawnOptions = {}) {
    this.child = spawn(
      'prlimit',
      [`--as=${limits.memory}`, `--nofile=${limits.files ?? 1024}`, '--core=0', '--', cmd, ...args],
      { stdio: ['ignore', 'pipe', 'pipe'], ...opts, detached: true },
    );
    const keep = (b: Buffer) => (this.tail = (this.tail + b.toString('utf8')).slice(-2000));
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', keep);
    this.child.on('error', (e) => keep(Buffer.from(e.message)));
    this.exited = new Promise((resolve) => {
      if (this.child.exitCode !== null) return resolve();
      this.child.once('exit', () => resolve());
      this.child.once('error', () => resolve());
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null && this.child.pid !== undefined;
  }

  /** The last lines it wrote (for a refusal's reason; the helpers never get a secret on their command line). */
  get output(): string {
    return this.tail;
  }

  onExit(f: () => void): void {
    void this.exited.then(f);
  }

  async stop(): Promise<void> {
    const pid = this.child.pid;
    if (!pid || !this.running) return;
    const signal = (s: NodeJS.Signals) => {
      try {
        process.kill(-pid, s);
      } catch {
        // already gone
      }
    };
    signal('SIGTERM');
    const timer = setTimeout(() => signal('SIGKILL'), STOP_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
    // Anything left in its group (a child that ignored SIGTERM) goes too.
    signal('SIGKILL');
  }
}
