/**
 * How long the asset takes to echo a keystroke, and when the echo of what was sent before Enter has
 * arrived. The delay is learnt as TCP learns a round trip (a smoothed estimate `srtt` and its
 * variation `rttvar`, gain 1/4): seeded provisionally with the time to open the shell (a few round
 * trips, replaced by the first real sample), then sampled on keys sent while the link is settled
 * (the previous key's echo came, or an Enter's wait ended), so the next output is this key's echo.
 * Enter and Ctrl+C are never sampled (what follows them is a command's output).
 *
 * At Enter, `caughtUp()` resolves when
 * - output arrived at least `minEcho` after the last key was sent (the echo of a key cannot come
 *   sooner than about one round trip; an earlier chunk is the echo of older keys still in flight)
 *   and then nothing more for `quiet` (the rest of the line's echo): `echoed`; output sooner than
 *   that counts once nothing more came by the time the echo was due (`srtt + 2·rttvar`);
 * - keys were sent and nothing at all came back for a retransmission time (`srtt + 4·rttvar`): the
 *   keys are not echoed (a password prompt, `read -s`, `stty -echo`): `unechoed`, after about one
 *   round trip rather than the full timeout;
 * - `maxWait` (4·srtt + 4·rttvar, within ECHO_WAIT_MIN_MS..ECHO_WAIT_MAX_MS) passed since the last
 *   key: `timeout`.
 * With a steady round trip, an older key's echo followed by `quiet` of silence cannot be taken for
 * the last one: `quiet ≥ srtt - minEcho`, the window in which such an echo could arrive.
 */
export const ECHO_WAIT_MIN_MS = 300;
export const ECHO_WAIT_MAX_MS = 3000;
const QUIET_MIN_MS = 30;

export type CaughtUp = 'echoed' | 'unechoed' | 'timeout' | 'stopped';

export class EchoClock {
  private srtt: number | undefined;
  private rttvar = 0;
  private lastSend = -Infinity;
  private lastOutput = -Infinity;
  /** The first key sent after the last output (undefined: everything sent was followed by output). */
  private unechoedSince: number | undefined;
  private sampleFrom: number | undefined;
  private provisional = false;
  /** No echo of ours is in flight: the next key may be timed. */
  private settled = true;
  private wake?: () => void;
  private stopped = false;

  constructor(private readonly now: () => number = Date.now) {}

  /** One round trip measured outside typing (the shell request): the first estimate. */
  seed(ms: number): void {
    if (this.srtt !== undefined || !(ms >= 0)) return;
    this.sample(Math.min(ms, ECHO_WAIT_MAX_MS));
    this.provisional = true;
  }

  /** The estimate in ms (undefined before any measurement). */
  get smoothed(): number | undefined {
    return this.srtt;
  }

  private sample(ms: number): void {
    if (this.srtt === undefined || this.provisional) {
      this.provisional = false;
      this.srtt = ms;
      this.rttvar = ms / 2;
      return;
    }
    this.rttvar = 0.75 * this.rttvar + 0.25 * Math.abs(this.srtt - ms);
    this.srtt = 0.75 * this.srtt + 0.25 * ms;
  }

  private limits() {
    const srtt = this.srtt ?? 0;
    const rto = Math.min(ECHO_WAIT_MAX_MS, Math.max(ECHO_WAIT_MIN_MS, srtt + 4 * this.rttvar));
    const maxWait = Math.min(ECHO_WAIT_MAX_MS, Math.max(ECHO_WAIT_MIN_MS, 4 * srtt + 4 * this.rttvar));
    const minEcho = Math.max(srtt - 2 * this.rttvar, srtt / 2);
    const quiet = Math.min(maxWait, Math.max(QUIET_MIN_MS, srtt - minEcho));
    return { rto, maxWait, minEcho, quiet, expected: srtt + 2 * this.rttvar };
  }

  /** Something was written to the asset; `key`: a keystroke of a command line (may be sampled). */
  sent(key: boolean): void {
    const t = this.now();
    if (key && this.settled && this.sampleFrom === undefined) this.sampleFrom = t;
    this.settled = false;
    this.unechoedSince ??= t;
    this.lastSend = t;
  }

  /** The asset sent output. */
  output(): void {
    const t = this.now();
    // Output a usual echo delay after the last key: its echo, nothing of ours is in flight anymore.
    if (t >= this.lastSend + this.limits().minEcho) this.settled = true;
    if (this.sampleFrom !== undefined) {
      const ms = t - this.sampleFrom;
      this.sampleFrom = undefined;
      if (ms <= ECHO_WAIT_MAX_MS) this.sample(ms);
    }
    this.unechoedSince = undefined;
    this.lastOutput = t;
    this.wake?.();
  }

  /** The longest an Enter waits for the echo of the keys before it (ms). */
  get maxWait(): number {
    return this.limits().maxWait;
  }

  /** Resolves at the asset's next output, when `ms` have passed, or when the session ends. */
  nextOutput(ms: number): Promise<void> {
    if (this.stopped || ms <= 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  /** The session ended: a wait in progress ends at once (`stopped`), and so do later ones. */
  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  /** At Enter: resolves when the output has caught up with the keys sent (see the class comment). */
  async caughtUp(): Promise<CaughtUp> {
    for (;;) {
      if (this.stopped) return 'stopped';
      const t = this.now();
      const { rto, maxWait, minEcho, quiet, expected } = this.limits();
      if (this.unechoedSince !== undefined && t >= this.unechoedSince + rto) {
        // The key in flight was never echoed: no sample from it.
        this.sampleFrom = undefined;
        this.settled = true;
        return 'unechoed';
      }
      if (t >= this.lastSend + maxWait) {
        this.settled = true;
        return 'timeout';
      }
      const echoAt =
        this.lastOutput >= this.lastSend + minEcho
          ? this.lastOutput + quiet
          : this.lastOutput > this.lastSend
            ? // Output came sooner than usual: the last key's echo if nothing more came by the time it was due.
              Math.max(this.lastOutput + quiet, this.lastSend + expected)
            : Infinity;
      if (this.unechoedSince === undefined && t >= echoAt) {
        this.settled = true;
        return 'echoed';
      }
      const next = Math.min(
        this.unechoedSince === undefined ? Infinity : this.unechoedSince + rto,
        this.lastSend + maxWait,
        this.unechoedSince === undefined ? echoAt : Infinity,
      );
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.wake = undefined;
          resolve();
        };
        const timer = setTimeout(done, Math.max(1, next - t));
        this.wake = done;
      });
    }
  }
}
