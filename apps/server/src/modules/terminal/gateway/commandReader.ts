import xterm from '@xterm/headless';

/**
 * Which command line the user ran, read from a headless terminal emulator fed with everything
 * the asset sent (the user's keystrokes come back as the shell's echo): at Enter, the logical
 * line under the cursor (wrapped rows joined) minus the prompt is the command. The prompt is the
 * line as it stood before the first keystroke of the command, so line editing, history recall
 * and completion — all drawn by the shell — are read as the user saw them, never guessed from
 * keystrokes. In a full-screen program (alternate screen: vi, top, less) Enter runs no command.
 */
export class CommandReader {
  private readonly term: InstanceType<typeof xterm.Terminal>;
  private prompt: string | undefined;

  constructor(cols: number, rows: number) {
    this.term = new xterm.Terminal({ cols, rows, scrollback: 200, allowProposedApi: true });
  }

  output(data: string): void {
    this.term.write(data);
  }

  resize(cols: number, rows: number): void {
    this.term.resize(Math.max(2, cols), Math.max(1, rows));
  }

  /** Resolves when everything written so far is parsed. */
  settle(): Promise<void> {
    return new Promise((resolve) => this.term.write('', resolve));
  }

  /**
   * The visible screen as text a terminal can draw (clear, rows, cursor placed): what a watcher
   * joining mid-session sees first (colours are not kept).
   */
  screenText(): string {
    const b = this.term.buffer.active;
    const rows: string[] = [];
    for (let y = 0; y < this.term.rows; y++) rows.push(b.getLine(b.viewportY + y)?.translateToString(true) ?? '');
    while (rows.length > 1 && !rows[rows.length - 1] && rows.length - 1 > b.cursorY) rows.pop();
    return `\x1b[H\x1b[2J${rows.join('\r\n')}\x1b[${b.cursorY + 1};${b.cursorX + 1}H`;
  }

  get fullScreen(): boolean {
    return this.term.buffer.active.type === 'alternate';
  }

  /** The logical line under the cursor and the cursor's offset in it. */
  private line(): { text: string; cursor: number } {
    const b = this.term.buffer.active;
    let y = b.baseY + b.cursorY;
    const rows: string[] = [];
    let start = y;
    while (start > 0 && b.getLine(start)?.isWrapped) start--;
    for (y = start; y < b.length; y++) {
      const l = b.getLine(y);
      if (!l || (y > start && !l.isWrapped)) break;
      rows.push(l.translateToString(false));
    }
    const cursor = (b.baseY + b.cursorY - start) * this.term.cols + b.cursorX;
    return { text: rows.join('').trimEnd(), cursor };
  }

  /** Before the first keystroke of a command line is sent: remember the prompt. */
  beginLine(): void {
    if (this.prompt !== undefined || this.fullScreen) return;
    const { text, cursor } = this.line();
    this.prompt = text.slice(0, cursor);
  }

  get lineStarted(): boolean {
    return this.prompt !== undefined;
  }

  /** At Enter (after settle()): the command on the line, undefined in a full-screen program or when empty. */
  command(): string | undefined {
    if (this.fullScreen) return undefined;
    const { text } = this.line();
    const prompt = this.prompt ?? '';
    const cmd = (text.startsWith(prompt) ? text.slice(prompt.length) : text).trim();
    return cmd || undefined;
  }

  /** The line is over (Enter, Ctrl+C): the next keystroke starts a new one. */
  endLine(): void {
    this.prompt = undefined;
  }

  dispose(): void {
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
