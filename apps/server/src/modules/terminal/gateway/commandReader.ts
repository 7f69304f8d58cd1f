import xterm from '@xterm/headless';
import serializeAddon from '@xterm/addon-serialize';
import type { IMarker } from '@xterm/headless';

/**
 * Which command line the user ran, read from a headless terminal emulator fed with everything
 * the asset sent (the user's keystrokes come back as the shell's echo): at Enter, the logical
 * line under the cursor (wrapped rows joined) minus the prompt is the command. The prompt is the
 * line as it stood before the first keystroke of the command, so line editing, history recall
 * and completion — all drawn by the shell — are read as the user saw them, never guessed from
 * keystrokes. In a full-screen program (alternate screen: vi, top, less) Enter runs no command.
 *
 * A line ends where the gateway takes a key for Enter (or Ctrl+C), but only the screen tells
 * whether the shell left it: markers (`registerMarker`, they follow a line as the screen scrolls)
 * keep where the line that ended starts. Keys typed while the cursor is still on it go on with its
 * prompt (a key the shell did not take the line at turns nothing typed into "prompt");
 * `lineCleared()` tells whether a line the gateway dropped with Ctrl+C is gone; `untrusted` marks a
 * line the shell still shows after Ctrl+C (readline can then hold something else than it shows).
 *
 * The emulator is the gateway's costliest part per byte of output, and only the screen as it stands
 * when a line is read matters: output is kept aside and parsed when it is needed (`settle()`, before
 * a line is read, and before a resize), not as it flows. A command printing megabytes between two
 * keystrokes leaves the last `keep()` characters at most (64 Ki, at least four screens) plus the
 * piece that crosses that mark: older pieces are dropped, the first kept piece is read from its
 * first line start, and the last alternate-screen switch among the dropped output is replayed, so
 * the reader still knows whether a full-screen program is running. What was dropped had scrolled
 * off the screen by then.
 */
const KEEP_MIN = 64 * 1024;
// A switch to or from the alternate screen (DECSET/DECRST 1049, 1047 or 47).
// eslint-disable-next-line no-control-regex -- an escape sequence
const ALT_SCREEN = /\x1b\[\?(?:[\d;]*;)?(?:1049|1047|47)(?:;[\d;]*)?([hl])/g;

export class CommandReader {
  private readonly term: InstanceType<typeof xterm.Terminal>;
  private prompt: string | undefined;
  /** The last prompt a line began after, for keys typed before the next one arrived. */
  private lastPrompt = '';
  /** Output not parsed yet, from `head` on. */
  private backlog: string[] = [];
  private head = 0;
  private backlogChars = 0;
  private dropped = false;
  /** The last alternate-screen switch among dropped output: `h` (in) or `l` (out). */
  private droppedAlt: string | undefined;
  /** Writes handed to the emulator and not parsed yet. */
  private parsing = 0;
  private serializer: InstanceType<typeof serializeAddon.SerializeAddon> | undefined;
  /** The line read last (at Enter) and the prompt taken off it. */
  private read: { marker: IMarker | undefined; prompt: string } | undefined;
  /** The line that ended last: where it starts, its prompt, whether Ctrl+C ended it. */
  private ended: { marker: IMarker | undefined; prompt: string; interrupted: boolean } | undefined;
  /** The line being typed goes on from the one that ended last (see beginLine()). */
  private continued = false;

  constructor(cols: number, rows: number) {
    this.term = new xterm.Terminal({ cols, rows, scrollback: 200, allowProposedApi: true });
  }

  output(data: string): void {
    if (!data) return;
    this.backlog.push(data);
    this.backlogChars += data.length;
    const keep = Math.max(KEEP_MIN, this.term.cols * this.term.rows * 4);
    while (this.head < this.backlog.length - 1 && this.backlogChars - this.backlog[this.head]!.length >= keep) {
      const old = this.backlog[this.head++]!;
      this.backlogChars -= old.length;
      this.drop(old);
    }
    if (this.head > 1024 && this.head * 2 > this.backlog.length) {
      this.backlog = this.backlog.slice(this.head);
      this.head = 0;
    }
  }

  private drop(text: string): void {
    this.dropped = true;
    if (text.includes('\x1b[?')) for (const m of text.matchAll(ALT_SCREEN)) this.droppedAlt = m[1];
  }

  /** Characters of output kept aside, not parsed yet. */
  get backlogSize(): number {
    return this.backlogChars;
  }

  /** Hands what was kept aside to the emulator. */
  private feed(): void {
    if (this.head >= this.backlog.length) return;
    const pieces = this.backlog.slice(this.head);
    if (this.dropped) {
      const first = pieces[0]!;
      const nl = first.indexOf('\n');
      if (nl >= 0) {
        this.drop(first.slice(0, nl + 1));
        pieces[0] = first.slice(nl + 1);
      }
      if (this.droppedAlt) pieces.unshift(`\x1b[?1049${this.droppedAlt}`);
    }
    this.backlog = [];
    this.head = 0;
    this.backlogChars = 0;
    this.dropped = false;
    this.droppedAlt = undefined;
    this.parsing++;
    this.term.write(pieces.length === 1 ? pieces[0]! : pieces.join(''), () => this.parsing--);
  }

  resize(cols: number, rows: number): void {
    this.feed();
    this.term.resize(Math.max(2, cols), Math.max(1, rows));
  }

  /**
   * Resolves when everything output so far is parsed (before the screen is read), including output
   * that arrived while the emulator parsed: a shell's "^C" and its new prompt come as two pieces, and
   * a screen read between them would show the line still there.
   */
  async settle(): Promise<void> {
    for (;;) {
      this.feed();
      if (!this.parsing) return;
      await new Promise<void>((resolve) => this.term.write('', resolve));
    }
  }

  /**
   * The visible screen as a terminal redraws it: cleared, then the rows with their colours and
   * attributes, the terminal modes, the alternate screen when a full-screen program runs, and the
   * cursor where it stands (`@xterm/addon-serialize`, loaded at the first call: only a watcher
   * joining mid-session asks, once, never per output). Read after settle().
   */
  screenState(): string {
    if (!this.serializer) {
      this.serializer = new serializeAddon.SerializeAddon();
      // The addon's typings name the browser xterm's Terminal; the headless one has the same API.
      this.term.loadAddon(this.serializer as unknown as Parameters<typeof this.term.loadAddon>[0]);
    }
    return `\x1b[H\x1b[2J${this.serializer.serialize({ scrollback: 0 })}`;
  }

  /** In the alternate screen (read after settle()). */
  get fullScreen(): boolean {
    return this.term.buffer.active.type === 'alternate';
  }

  /** The buffer row where the logical line under the cursor starts (wrapped rows belong to the one above). */
  private lineStartRow(): number {
    const b = this.term.buffer.active;
    let start = b.baseY + b.cursorY;
    while (start > 0 && b.getLine(start)?.isWrapped) start--;
    return start;
  }

  /** The logical line under the cursor and the cursor's offset in it. */
  private line(): { text: string; cursor: number } {
    const b = this.term.buffer.active;
    const start = this.lineStartRow();
    const rows: string[] = [];
    for (let y = start; y < b.length; y++) {
      const l = b.getLine(y);
      if (!l || (y > start && !l.isWrapped)) break;
      rows.push(l.translateToString(false));
    }
    const cursor = (b.baseY + b.cursorY - start) * this.term.cols + b.cursorX;
    return { text: rows.join('').trimEnd(), cursor };
  }

  /** A marker on the start of the line under the cursor: it follows the line as the screen scrolls. */
  private markLine(): IMarker | undefined {
    const b = this.term.buffer.active;
    return this.term.registerMarker(this.lineStartRow() - (b.baseY + b.cursorY));
  }

  /**
   * The cursor is still on the line that ended last, its prompt still drawn: the key that ended
   * it did not take the shell to a new line (yet), or the shell kept the line after Ctrl+C.
   */
  private onEndedLine(): boolean {
    const e = this.ended;
    if (!e?.marker || e.marker.isDisposed || this.fullScreen) return false;
    return e.marker.line === this.lineStartRow() && this.line().text.startsWith(e.prompt.trimEnd());
  }

  /**
   * Before the first keystroke of a command line is sent (after settle()): remember the prompt.
   * On the line that ended last, the line goes on with the prompt it began with: a key taken for
   * Enter that the shell did not take the line at must not turn what was typed into "prompt".
   */
  beginLine(): void {
    if (this.prompt !== undefined || this.fullScreen) return;
    this.continued = this.onEndedLine();
    if (this.continued) {
      this.prompt = this.ended!.prompt;
      return;
    }
    const { text, cursor } = this.line();
    this.prompt = text.slice(0, cursor);
    if (this.prompt.trim()) this.lastPrompt = this.prompt;
  }

  get lineStarted(): boolean {
    return this.prompt !== undefined;
  }

  /** The line being typed goes on from the one that ended last: the shell did not leave it. */
  get continues(): boolean {
    return this.prompt !== undefined && this.continued;
  }

  /** The prompt the line being typed began after (undefined before its first key). */
  get linePrompt(): string | undefined {
    return this.prompt;
  }

  /**
   * At Enter (after settle()): the command on the line, undefined in a full-screen program, when
   * empty, or when nothing was typed since the last line ended and the cursor is still on it
   * (that line was read already).
   */
  command(): string | undefined {
    if (this.fullScreen) return undefined;
    if (this.prompt === undefined && this.onEndedLine()) return undefined;
    const { text } = this.line();
    let prompt = this.prompt ?? '';
    // Typed ahead of a prompt still on its way (a slow link, a busy asset): the line began empty and
    // the shell drew its prompt before the keys' echo. The prompt it drew last time is taken off.
    if (!prompt.trim() && this.lastPrompt && text.startsWith(this.lastPrompt)) prompt = this.lastPrompt;
    this.read?.marker?.dispose();
    this.read = { marker: this.markLine(), prompt };
    const cmd = (text.startsWith(prompt) ? text.slice(prompt.length) : text).trim();
    return cmd || undefined;
  }

  /**
   * The line can be read but not trusted: it goes on from a line a Ctrl+C should have dropped and
   * the shell still shows (readline can keep a line it shows differently from what it holds, as
   * after Escape and Ctrl+C within its key-sequence timeout in vi mode). Read after settle().
   */
  get untrusted(): boolean {
    if (this.prompt !== undefined) return this.continued && Boolean(this.ended?.interrupted);
    return (
      Boolean(this.ended?.interrupted) && this.onEndedLine() && this.line().text.trim() !== this.ended!.prompt.trim()
    );
  }

  /**
   * The line is over (Enter, Ctrl+C; `interrupted` for Ctrl+C): the next keystroke starts a new
   * one, unless the shell stays on this line (see beginLine()).
   */
  endLine(interrupted = false): void {
    const read = this.read;
    this.read = undefined;
    this.ended?.marker?.dispose();
    const prompt = this.prompt ?? read?.prompt ?? '';
    const marker = read?.marker ?? (this.fullScreen ? undefined : this.markLine());
    this.ended = { marker, prompt, interrupted };
    this.prompt = undefined;
    this.continued = false;
  }

  /**
   * After the ended line was interrupted by the gateway (after settle(), once output came since):
   * the cursor left that line, or its row shows nothing after the prompt any more.
   */
  lineCleared(): boolean {
    if (this.fullScreen) return false;
    const e = this.ended;
    if (!e?.marker || e.marker.isDisposed || e.marker.line !== this.lineStartRow()) return true;
    const { text } = this.line();
    return (text.startsWith(e.prompt.trimEnd()) ? text.slice(e.prompt.trimEnd().length) : text).trim() === '';
  }

  dispose(): void {
    this.read?.marker?.dispose();
    this.ended?.marker?.dispose();
    this.term.dispose();
  }
}

// CSI, OSC, two-character escapes and carriage returns: what a terminal draws but a reader does not need.
const ESCAPES =
  // eslint-disable-next-line no-control-regex -- terminal escape sequences are control characters
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[ -~]|\r|[\x00-\x08\x0b-\x1f\x7f]/g;

export const OUTPUT_EXCERPT_MAX = 2048;

/** The text a command printed, escapes removed, at most OUTPUT_EXCERPT_MAX characters. */
export class OutputExcerpt {
  private text = '';

  add(data: string): void {
    if (this.text.length >= OUTPUT_EXCERPT_MAX * 2) return;
    this.text += data;
  }

  /** The excerpt without the last line (the next prompt, when the command is done). */
  take(dropLastLine: boolean): string {
    let t = this.text.replace(ESCAPES, '');
    this.text = '';
    if (t.startsWith('\n')) t = t.slice(1);
    if (dropLastLine) {
      const nl = t.lastIndexOf('\n');
      t = nl < 0 ? '' : t.slice(0, nl);
    }
    return t.slice(0, OUTPUT_EXCERPT_MAX);
  }
}
