import type { CastEvent } from './castStream.ts';

/**
 * The replay's time axis. Every event keeps its real time (seconds since the session started) and
 * gets a play time in which each idle stretch longer than `idleLimit` lasts only `idleLimit`
 * (Infinity: no compression). The player moves along the play time; commands and `?t=` name
 * real times and are mapped with `playOf`.
 */
export interface TimedEvent {
  real: number;
  play: number;
  kind: string;
  data: string;
}

export class Timeline {
  readonly events: TimedEvent[] = [];

  constructor(private idleLimit = 2) {}

  get limit(): number {
    return this.idleLimit;
  }

  add(batch: CastEvent[]): void {
    for (const [real, kind, data] of batch) {
      const prev = this.events[this.events.length - 1];
      const play = prev ? prev.play + this.gap(real - prev.real) : Math.min(real, this.idleLimit);
      this.events.push({ real, play, kind, data });
    }
  }

  private gap(d: number): number {
    return Math.max(0, Math.min(d, this.idleLimit));
  }

  /** Changes the idle limit and recomputes every play time. */
  setIdleLimit(limit: number): void {
    this.idleLimit = limit > 0 ? limit : Infinity;
    let prev: TimedEvent | undefined;
    for (const e of this.events) {
      e.play = prev ? prev.play + this.gap(e.real - prev.real) : Math.min(e.real, this.idleLimit);
      prev = e;
    }
  }

  /** Play time of the last event loaded. */
  get duration(): number {
    return this.events[this.events.length - 1]?.play ?? 0;
  }

  /** Index of the last event at or before play time `p` (-1: none). */
  indexAt(p: number): number {
    let lo = 0;
    let hi = this.events.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.events[mid]!.play <= p) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** Play time of real time `r` (seconds since the start). */
  playOf(r: number): number {
    let lo = 0;
    let hi = this.events.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.events[mid]!.real <= r) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found < 0) return Math.min(Math.max(0, r), this.idleLimit);
    const e = this.events[found]!;
    return e.play + this.gap(r - e.real);
  }

  /** Real time of play time `p`. */
  realOf(p: number): number {
    const i = this.indexAt(p);
    if (i < 0) return p;
    const e = this.events[i]!;
    return e.real + (p - e.play);
  }
}

/** Formats seconds as m:ss or h:mm:ss. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}
