/**
 * Terminal output as a JSON string literal, encoded once per piece: the recording
 * (`recorder.ts`, an asciicast line) and the web terminal's frame (`webTerminalSocket.ts`,
 * TERMINAL_DATA) both carry each piece of output as JSON, and the encoding was a third of the
 * gateway's work per byte. The gateway session hands the same string to both in one turn, so the
 * last piece is remembered (compared by identity first, then by content).
 *
 * Encoded pieces concatenate: `"a"` and `"b"` make `"ab"` through `joinJson` (the output is decoded
 * from UTF-8 whole characters, so no surrogate pair is ever split between two pieces).
 */
let lastText: string | undefined;
let lastJson = '';

export function outputJson(text: string): string {
  if (text !== lastText) {
    lastJson = JSON.stringify(text);
    lastText = text;
  }
  return lastJson;
}

/** One JSON string literal of the pieces' texts, in order. */
export function joinJson(pieces: string[]): string {
  if (pieces.length === 1) return pieces[0]!;
  return `"${pieces.map((p) => p.slice(1, -1)).join('')}"`;
}
