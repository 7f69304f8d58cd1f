/**
 * What the user's keys mean for a command line, before any screen is read: which keys make a
 * shell take the line, which abandon it, which only add text, how a paste arrives, and which
 * prompts ask for a secret rather than a command. Pure; `commandGate.ts` applies it.
 */

/**
 * Keys a shell takes the line at (readline's default bindings, and a terminal's line discipline):
 * Enter (Ctrl+M, `\r`), Ctrl+J (line feed, `\n`), Ctrl+O (bash's operate-and-get-next, which runs
 * the line and then recalls the next one from history). Each is an Enter to the gateway: the line
 * is read and judged before the key is sent. A key the shell does not take the line at (Ctrl+O in
 * vi insert mode inserts it) costs a judgment, never a line run unjudged: the line goes on with
 * the prompt it began with (`CommandReader.beginLine`).
 */
// eslint-disable-next-line no-control-regex -- the keys are control characters
const STOP = /[\r\n\x0f\x03]/;

/** Ctrl+C: the interrupt, in every editing mode (emacs, vi insert and command) the way to drop a line. */
export const INTERRUPT = '\x03';

/** The index of the first line end or interrupt in `keys`, -1 when none. */
export function nextStop(keys: string): number {
  return keys.search(STOP);
}

/**
 * A bracketed paste (`ESC[200~ ... ESC[201~`, sent by the terminal when the shell asked for it)
 * makes bash insert every pasted line end without taking the line, and show nothing until the
 * paste ends. The gateway takes a paste as typed keys: without its marks, each pasted line end is
 * an Enter, so the lines of a paste are read, judged and run one after the other, as typed.
 */
// eslint-disable-next-line no-control-regex -- escape sequences
const PASTE_MARKS = /\x1b\[20[01]~/g;

export function withoutPasteMarks(keys: string): string {
  return keys.includes('\x1b[20') ? keys.replace(PASTE_MARKS, '') : keys;
}

/** Keys that only add text to a line: no control key, escape sequence or Delete. */
// eslint-disable-next-line no-control-regex -- control keys and escapes are what ends plain typing
export const plainText = (keys: string): boolean => !/[\x00-\x1f\x7f]/.test(keys);

/** Keys as text: control keys in caret notation (`^[` Escape, `^?` Delete), for a record read from input. */
export function caretKeys(keys: string): string {
  // eslint-disable-next-line no-control-regex -- control keys are what is rewritten
  return keys.replace(/[\x00-\x1f\x7f]/g, (c) =>
    c === '\x7f' ? '^?' : `^${String.fromCharCode(c.charCodeAt(0) + 64)}`,
  );
}

/**
 * A prompt asking for a secret (`[sudo] password for ann:`, `Enter passphrase for key ...:`,
 * `Verification code:`, 密码：, パスワード:): what is typed there without echo is not a command,
 * so it is neither judged nor recorded (a password must not land in the command records).
 */
const SECRET_PROMPT =
  /(pass(word|phrase|code)?|\bpin\b|\botp\b|token|secret|verification code|one-time|密码|密碼|口令|パスワード|暗証)[^\n]*[:：?>]\s*$/i;

export function asksSecret(prompt: string): boolean {
  return SECRET_PROMPT.test(prompt);
}
