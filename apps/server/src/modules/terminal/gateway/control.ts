import type { Bus } from '../../../platform/bus/index.ts';

/**
 * Live control of running sessions through the bus: every instance keeps its own sessions in a
 * registry and listens on one control channel, so kill, lock/unlock and live watching reach a
 * session from any instance (in-process bus on one instance, Redis pub/sub across several).
 * Watching: a watcher subscribes to the session's output channel and announces itself; the
 * session publishes its output there only while someone watches.
 */
export const CONTROL_CHANNEL = 'terminal.session.control';
export const outputChannel = (sessionId: string) => `terminal.session.output.${sessionId}`;

export interface ControlTarget {
  readonly id: string;
  kill(by: string): void;
  setLocked(locked: boolean, by: string): void;
  setWatched(delta: number): void;
  /** Keys of a joiner of a writable sharing (../sharing/): the owner's input as if typed (terminals only). */
  sharedInput?(data: string): void;
  /** Someone joined or left through a sharing: told to the owner's page. */
  shareEvent?(e: ShareEvent): void;
}

export interface ShareEvent {
  event: 'joined' | 'left';
  user: string;
  permission: string;
}

type ControlMessage =
  | { action: 'kill'; ids: string[]; by: string }
  | { action: 'lock' | 'unlock'; ids: string[]; by: string }
  | { action: 'watch'; ids: string[]; delta: number }
  | { action: 'input'; ids: string[]; data: string }
  | { action: 'share'; ids: string[]; share: ShareEvent };

export class SessionRegistry {
  private readonly local = new Map<string, ControlTarget>();
  private unsubscribe?: () => Promise<void>;

  constructor(private readonly bus: Bus) {}

  async start(): Promise<void> {
    this.unsubscribe ??= await this.bus.subscribe(CONTROL_CHANNEL, (m) => this.onControl(m as ControlMessage));
  }

  async stop(): Promise<void> {
    const u = this.unsubscribe;
    this.unsubscribe = undefined;
    await u?.();
  }

  add(s: ControlTarget): void {
    this.local.set(s.id, s);
  }

  remove(id: string): void {
    this.local.delete(id);
  }

  get(id: string): ControlTarget | undefined {
    return this.local.get(id);
  }

  get size(): number {
    return this.local.size;
  }

  ids(): string[] {
    return [...this.local.keys()];
  }

  private onControl(m: ControlMessage): void {
    if (!m || !Array.isArray(m.ids)) return;
    for (const id of m.ids) {
      const s = this.local.get(String(id));
      if (!s) continue;
      if (m.action === 'kill') s.kill(m.by);
      else if (m.action === 'lock' || m.action === 'unlock') s.setLocked(m.action === 'lock', m.by);
      else if (m.action === 'watch') s.setWatched(Number(m.delta) || 0);
      else if (m.action === 'input' && typeof m.data === 'string') s.sharedInput?.(m.data);
      else if (m.action === 'share' && m.share) s.shareEvent?.(m.share);
    }
  }

  /** Ends the sessions wherever they run. */
  kill(ids: string[], by: string): Promise<void> {
    return this.bus.publish(CONTROL_CHANNEL, { action: 'kill', ids, by });
  }

  /** Pauses (lock) or resumes the sessions' input wherever they run. */
  lock(ids: string[], locked: boolean, by: string): Promise<void> {
    return this.bus.publish(CONTROL_CHANNEL, { action: locked ? 'lock' : 'unlock', ids, by });
  }

  /**
   * The live-watch hook: `onOutput` receives the session's terminal output from now on, from any
   * instance; the answer stops watching. (The auditor's page plugs in here.)
   */
  async watch(id: string, onOutput: (text: string) => void): Promise<() => Promise<void>> {
    const unsub = await this.bus.subscribe(outputChannel(id), (m) => {
      if (typeof m === 'string') onOutput(m);
    });
    await this.bus.publish(CONTROL_CHANNEL, { action: 'watch', ids: [id], delta: 1 });
    let stopped = false;
    return async () => {
      if (stopped) return;
      stopped = true;
      await this.bus.publish(CONTROL_CHANNEL, { action: 'watch', ids: [id], delta: -1 });
      await unsub();
    };
  }

  /** A writable sharing's joiner typed: to the session wherever it runs. */
  input(id: string, data: string): Promise<void> {
    return this.bus.publish(CONTROL_CHANNEL, { action: 'input', ids: [id], data });
  }

  /** A joiner came or went: to the session's owner wherever the session runs. */
  share(id: string, share: ShareEvent): Promise<void> {
    return this.bus.publish(CONTROL_CHANNEL, { action: 'share', ids: [id], share });
  }

  publishOutput(id: string, text: string): void {
    void this.bus.publish(outputChannel(id), text).catch(() => undefined);
  }
}
