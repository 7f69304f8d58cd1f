/**
 * A graphical session's recording (the `.cast` recorder's lines, `kind: rfb`, docs/graphical.md):
 * a header line, then `[seconds, "d", base64]` lines of the RFB bytes the browser received from
 * ServerInit on. `recordedStream` joins them back into the stream (a cut last line is skipped).
 */
export function recordedStream(text: string): Buffer {
  const parts: Buffer[] = [];
  for (const line of text.split('\n').slice(1)) {
    if (!line) continue;
    try {
      const e = JSON.parse(line) as unknown;
      if (Array.isArray(e) && e[1] === 'd' && typeof e[2] === 'string') parts.push(Buffer.from(e[2], 'base64'));
    } catch {
      // a line cut by a crash
    }
  }
  return Buffer.concat(parts);
}
