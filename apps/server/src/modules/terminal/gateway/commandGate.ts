import type { Language } from '@gatehouse/contract';
import { RISK, type CommandPolicy, type CommandVerdict } from './commandPolicy.ts';
import { OutputExcerpt, type CommandReader } from './commandReader.ts';
import { commandReviewer, type CommandReviewRequest } from './commandReview.ts';
import { ECHO_WAIT_MAX_MS, type EchoClock } from './echoClock.ts';
import { tm } from './gatewayError.ts';
import { asksSecret, caretKeys, INTERRUPT, nextStop, plainText, withoutPasteMarks } from './lineKeys.ts';

/**
 * Between the user's keys and the asset's shell in a terminal session: keys go through as they
 * come, except the keys a shell takes a line at (`lineKeys.ts`). There the line is read (the
 * screen, `CommandReader`; the keys themselves when the screen does not show them), judged by the
 * command filter rules (`CommandPolicy`) and recorded, and only then is the key sent (accept,
 * warning), the line dropped (reject), or held for a reviewer (review).
 *
 * The promise: a rule catches the command as typed and shown, however the line is ended; every
 * command is recorded; a command recorded as refused did not run. So a refused line is dropped
 * with Ctrl+C (which every editing mode obeys) and recorded only once the screen shows it gone;
 * when it does not, the session ends (its shell then never runs the line). A line that cannot be
 * read (typed without echo with editing keys; still shown after Ctrl+C) is refused while a reject
 * or review rule applies to the session.
 */
export interface GateHost {
  readonly lang: Language;
  /** Who asks where, for a reviewer's ticket. */
  readonly reviewContext: Omit<CommandReviewRequest, 'command' | 'ruleId' | 'reviewers' | 'signal'>;
  isEnded(): boolean;
  isLocked(): boolean;
  /** Writes to the asset; `key`: keystrokes of a command line, whose echo is timed. */
  send(text: string, key?: boolean): void;
  /** A message of the gateway on a line of its own (recorded, watched; not the shell's screen). */
  say(text: string): void;
  record(c: CommandRecord): Promise<string>;
  /** The output excerpt of a command recorded earlier. */
  recordOutput(id: string, output: string): Promise<void>;
  warn(command: string, verdict: CommandVerdict): Promise<void>;
  /** Ends the session: the shell can no longer run what it holds. */
  end(): void;
}

export interface CommandRecord {
  command: string;
  risk: number;
  verdict: CommandVerdict | undefined;
  output: string;
  /** Read from the keys typed, not from the screen (the shell did not show them). */
  fromInput: boolean;
}

/** A line to judge: its text, where it was read from, and whether it can be trusted. */
interface Line {
  command: string;
  fromInput?: boolean;
  /** The shell may hold something else than this text. */
  unreadable?: boolean;
}

type Outcome = 'cancel' | 'approved' | 'rejected';

/** Ctrl+O runs the line and puts the next one from history on the new line. */
const OPERATE_AND_GET_NEXT = '\x0f';
/**
 * After a lone Escape readline waits this long (its keyseq-timeout, 500 ms by default) for the rest
 * of a key sequence; a Ctrl+C within it leaves the line in place (vi mode), so it waits that out.
 */
const ESCAPE_SETTLE_MS = 600;
/** Silence after the shell's answer to Ctrl+C that tells it kept the line (at least the echo wait). */
const KEPT_QUIET_MS = 1000;

export class CommandGate {
  private chain: Promise<void> = Promise.resolve();
  private held?: { resolve: (outcome: Outcome) => void };
  private pending?: { id: string; excerpt: OutputExcerpt };
  /** The current line's keys, whether they were all plain text, and whether output came since. */
  private keys = '';
  private plain = true;
  private shown = false;
  /** The line that ended last, as it was typed (a line the shell did not take goes on with them). */
  private endedKeys = { keys: '', plain: true, shown: false, key: '' };
  /** The line began after Ctrl+O: the shell put a line from history on it, unseen with echo off. */
  private prefilled = false;
  /** A line end or interrupt was sent: the shell's answer comes before the next line is read. */
  private afterStop = false;
  /** Prompts that lines typed with echo were read after: a shell's, never a secret's. */
  private readonly shellPrompts = new Set<string>();
  /** Pieces of the asset's output other than bells, counted. */
  private shownCount = 0;
  /** When keys of a line were last sent. */
  private typedAt = 0;

  constructor(
    private readonly host: GateHost,
    private readonly reader: CommandReader,
    private readonly echo: EchoClock,
    private readonly policy: CommandPolicy,
  ) {}

  /** The user's keys, processed in order (a held command keeps later keys out, except Ctrl+C which cancels it). */
  input(data: string): void {
    if (this.held) {
      if (data.includes(INTERRUPT)) this.held.resolve('cancel');
      return;
    }
    this.chain = this.chain.then(() => this.process(data)).catch(() => this.host.end());
  }

  /** The asset's output (not the gateway's messages). */
  seen(text: string): void {
    this.pending?.excerpt.add(text);
    // eslint-disable-next-line no-control-regex -- a bell is no echo
    if (!/[^\x07]/.test(text)) return;
    this.shownCount++;
    if (this.reader.lineStarted) this.shown = true;
  }

  /** The session ends: a held line is cancelled; resolves once the keys in hand are dealt with. */
  async stop(): Promise<void> {
    this.held?.resolve('cancel');
    await this.chain.catch(() => undefined);
  }

  /** The output of the previous command, its last line (the next prompt) left out. */
  async finishPending(): Promise<void> {
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    const output = p.excerpt.take(true);
    if (output) await this.host.recordOutput(p.id, output);
  }

  private async process(data: string): Promise<void> {
    let rest = withoutPasteMarks(data);
    while (rest && !this.host.isEnded() && !this.held && !this.host.isLocked()) {
      const i = nextStop(rest);
      const text = i < 0 ? rest : rest.slice(0, i);
      if (text) {
        if (!this.reader.lineStarted) await this.beginLine();
        this.keys += text;
        this.plain &&= plainText(text);
        this.typedAt = Date.now();
        this.host.send(text, true);
      }
      if (i < 0) return;
      const key = rest[i]!;
      rest = rest.slice(i + 1);
      if (key === INTERRUPT) {
        this.host.send(INTERRUPT);
        this.endLine(key, true);
      } else await this.enter(key);
    }
  }

  private async beginLine(): Promise<void> {
    // Keys right behind a line end (a paste, typing ahead) wait for the shell's answer to it, so
    // that the next line is read after the prompt it begins at.
    if (this.afterStop) {
      this.afterStop = false;
      await this.echo.caughtUp();
    }
    await this.reader.settle();
    this.reader.beginLine();
    if (this.reader.continues) {
      // The shell stayed on the line that ended: it goes on with what was typed on it.
      const e = this.endedKeys;
      this.keys = e.keys + e.key;
      this.plain = e.plain && plainText(e.key);
      this.shown = e.shown;
    }
  }

  private endLine(key: string, interrupted: boolean): void {
    this.endedKeys = { keys: this.keys, plain: this.plain, shown: this.shown, key };
    this.reader.endLine(interrupted);
    this.prefilled = key === OPERATE_AND_GET_NEXT;
    this.afterStop = true;
    this.keys = '';
    this.plain = true;
    this.shown = false;
  }

  /**
   * A line end: once the echo of the keys sent has arrived (`EchoClock`, learnt from this
   * session's round trips), read the line, decide by the command filter rules, then send, refuse
   * or hold it: the key reaches the asset only after the decision.
   */
  private async enter(key: string): Promise<void> {
    const prefilled = this.prefilled;
    if ((await this.echo.caughtUp()) === 'echoed') await this.untilTypedShown();
    await this.reader.settle();
    const line = this.readLine(prefilled);
    this.endLine(key, false);
    if (!line) return this.host.send(key);
    await this.finishPending();
    const lang = this.host.lang;
    if (line.unreadable) {
      const rule = await this.policy.restricting();
      if (rule) return this.refuse(line, rule, tm(lang, 'cmd_unreadable', { rule: rule.ruleName }));
      return this.run(line, key, RISK.accept, undefined);
    }
    const verdict = await this.policy.check(line.command);
    const action = verdict?.action ?? 'accept';
    if (action === 'accept') return this.run(line, key, RISK.accept, verdict);
    if (action === 'warning') {
      await this.run(line, key, RISK.warning, verdict);
      return this.host.warn(line.command, verdict!);
    }
    if (action === 'reject')
      return this.refuse(line, verdict!, tm(lang, 'cmd_rejected', { command: line.command, rule: verdict!.ruleName }));
    this.hold(line, key, verdict!);
  }

  /**
   * The line to judge: as the screen shows it; from the keys typed when the screen does not show
   * them (echo off); unreadable when neither can be trusted; undefined when there is nothing to
   * judge (empty, a full-screen program, a secret typed at a password prompt).
   */
  private readLine(prefilled: boolean): Line | undefined {
    const r = this.reader;
    if (r.fullScreen) return undefined;
    const started = r.lineStarted;
    const prompt = r.linePrompt ?? '';
    const untrusted = r.untrusted;
    const shown = r.command();
    const keys = caretKeys(`${prefilled ? OPERATE_AND_GET_NEXT : ''}${this.keys}`).trim();
    if (untrusted) return { command: shown ?? keys, unreadable: true };
    if (!started) {
      if (shown !== undefined) return { command: shown };
      // After Ctrl+O with echo off (the line it ended was not shown) the shell holds a line from
      // history nobody saw.
      return prefilled && !this.endedKeys.shown ? { command: keys, fromInput: true, unreadable: true } : undefined;
    }
    const secret = () => asksSecret(prompt) && !this.shellPrompts.has(prompt);
    if (this.plain) {
      const typed = this.keys.trim();
      if (!typed) return shown === undefined ? undefined : { command: shown };
      if (shown?.endsWith(typed)) {
        this.shellPrompt(prompt);
        return { command: shown };
      }
      // The screen does not show what was typed (echo off, or a program masking it): the keys
      // are the line, unless the shell put something on it first (Ctrl+O) that nobody saw.
      if (secret()) return undefined;
      return prefilled ? { command: keys, fromInput: true, unreadable: true } : { command: typed, fromInput: true };
    }
    if (!this.shown) {
      // Editing keys and nothing but bells came back: echo is off, what the shell holds is unknown.
      if (secret()) return undefined;
      return { command: keys, fromInput: true, unreadable: true };
    }
    if (shown === undefined) return undefined;
    this.shellPrompt(prompt);
    return { command: shown };
  }

  /** A prompt typed keys were shown after (a prompt with the time in it changes each line: kept few). */
  private shellPrompt(prompt: string): void {
    if (this.shellPrompts.size >= 64) this.shellPrompts.clear();
    this.shellPrompts.add(prompt);
  }

  /**
   * A line typed as plain text (no editing key, escape or Tab): the echo has caught up only once
   * the line shows all of it. An echo held back mid-line (a loaded asset, a hiccup on the link)
   * looks like the end of the echo to the clock, and reading then would judge `rm -rf /tm` instead
   * of what the asset runs; so wait for the rest, at most the clock's longest wait.
   */
  private async untilTypedShown(): Promise<void> {
    const typed = this.plain ? this.keys.trim() : '';
    if (!typed) return;
    const deadline = Date.now() + this.echo.maxWait;
    for (;;) {
      await this.reader.settle();
      const line = this.reader.command();
      if (this.host.isEnded() || line === undefined || line.endsWith(typed) || Date.now() >= deadline) return;
      await this.echo.nextOutput(deadline - Date.now());
    }
  }

  private hold(line: Line, key: string, verdict: CommandVerdict): void {
    const lang = this.host.lang;
    this.host.say(tm(lang, 'cmd_review_held', { command: line.command, rule: verdict.ruleName }));
    const abort = new AbortController();
    const outcome = new Promise<Outcome>((resolve) => {
      this.held = { resolve };
      commandReviewer()?.({
        ...this.host.reviewContext,
        command: line.command,
        ruleId: verdict.ruleId,
        reviewers: verdict.reviewers,
        signal: abort.signal,
      }).then(resolve, () => resolve('rejected'));
    });
    // Not awaited by the key chain: Ctrl+C must get through while the command is held.
    this.chain = outcome
      .then(async (o) => {
        this.held = undefined;
        abort.abort();
        const ended = this.host.isEnded();
        if (o === 'approved' && !ended) {
          this.host.say(tm(lang, 'cmd_review_approved'));
          return this.run(line, key, RISK.reviewAccept, verdict);
        }
        // A session ending while the line is held cancels it (still recorded).
        const cancelled = o === 'cancel' || ended;
        const risk = cancelled ? RISK.reviewCancel : RISK.reviewReject;
        if (ended) return void (await this.store(line, risk, verdict, ''));
        await this.refuse(line, verdict, tm(lang, cancelled ? 'cmd_review_cancelled' : 'cmd_review_denied'), risk, '');
      })
      .catch(() => this.host.end());
  }

  private async run(line: Line, key: string, risk: number, verdict: CommandVerdict | undefined): Promise<void> {
    const id = await this.store(line, risk, verdict, '');
    this.pending = { id, excerpt: new OutputExcerpt() };
    this.host.send(key);
  }

  /**
   * The line is not run: the user reads why, the shell drops it, and once the screen shows it gone
   * it is recorded as refused. When the shell keeps it, the session ends first (with a message),
   * so that the record still tells the truth.
   */
  private async refuse(
    line: Line,
    verdict: CommandVerdict,
    message: string,
    risk: number = RISK.reject,
    output = message,
  ) {
    this.host.say(message);
    const cleared = await this.dropLine();
    let note = output;
    if (!cleared) {
      const ending = tm(this.host.lang, 'cmd_not_cleared');
      this.host.say(ending);
      this.host.end();
      note = output ? `${output}\n${ending}` : ending;
    }
    await this.store(line, risk, verdict, note);
  }

  /**
   * Ctrl+C, then the screen must show the line gone: the cursor off it, or nothing left after its
   * prompt. Once more when the shell answered but kept the line (readline does, after Escape and
   * Ctrl+C within its key-sequence timeout in vi mode); each at most the echo clock's longest wait.
   */
  private async dropLine(): Promise<boolean> {
    const escapeLeft = this.typedAt + ESCAPE_SETTLE_MS - Date.now();
    if (this.endedKeys.keys.endsWith('\x1b') && escapeLeft > 0) await new Promise((r) => setTimeout(r, escapeLeft));
    for (let attempt = 0; attempt < 2; attempt++) {
      const before = this.shownCount;
      this.host.send(INTERRUPT);
      const deadline = Date.now() + ECHO_WAIT_MAX_MS;
      for (;;) {
        if (this.host.isEnded()) return true;
        await this.reader.settle();
        if (this.shownCount > before && this.reader.lineCleared()) {
          // Dropped, not run: Ctrl+O (if it ended the line) recalled nothing.
          this.prefilled = false;
          return true;
        }
        const left = deadline - Date.now();
        if (left <= 0) break;
        const seen = this.shownCount;
        await this.echo.nextOutput(Math.min(left, Math.max(this.echo.maxWait, KEPT_QUIET_MS)));
        // The shell answered, then went quiet with the line still there: interrupt again.
        if (this.shownCount === seen && seen > before) break;
      }
    }
    return this.host.isEnded();
  }

  private store(line: Line, risk: number, verdict: CommandVerdict | undefined, output: string) {
    return this.host.record({ command: line.command, risk, verdict, output, fromInput: Boolean(line.fromInput) });
  }
}
