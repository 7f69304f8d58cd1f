/**
 * Text received from outside (a file name sent over SFTP) shown or exported with its control
 * characters visible and inert: C0 (but none is kept as is), DEL and C1 become `\xNN`, so a list,
 * a CSV or an XLSX opened in a terminal cannot carry an escape sequence. The stored value is
 * left as received (searches and filters still match it).
 */
// eslint-disable-next-line no-control-regex -- the control characters are what this escapes
const CONTROL = /[\x00-\x1f\x7f-\x9f]/g;

export function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
