/**
 * Reading an asciicast v2 recording (`.cast.gz`) while it downloads: the body goes through the
 * browser's DecompressionStream and TextDecoderStream, lines are cut as they arrive, the header is
 * handed over first and events in batches, so the player starts at the first frames instead of
 * after the whole file.
 */
export interface CastHeader {
  version: number;
  width: number;
  height: number;
  /** Epoch seconds of the session's start (event times are relative to it). */
  timestamp: number;
}

/** `[seconds since start, kind ('o' output, 'r' resize "<cols>x<rows>"), data]` */
export type CastEvent = [number, string, string];

export interface CastSink {
  header(h: CastHeader): void;
  events(batch: CastEvent[]): void;
}

/** Splits text into complete lines, keeping a partial last line for the next chunk. */
export class LineSplitter {
  private rest = '';

  push(chunk: string): string[] {
    const text = this.rest + chunk;
    const lines = text.split('\n');
    this.rest = lines.pop() ?? '';
    return lines.filter((l) => l.trim() !== '');
  }

  end(): string[] {
    const last = this.rest.trim();
    this.rest = '';
    return last ? [last] : [];
  }
}

/** Parses lines into the header (first line) and events; a broken line is skipped. */
export function parseLines(lines: string[], sink: CastSink, state: { header: boolean }): void {
  const batch: CastEvent[] = [];
  for (const line of lines) {
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    if (!state.header) {
      state.header = true;
      sink.header(v as CastHeader);
    } else if (Array.isArray(v) && typeof v[0] === 'number' && typeof v[2] === 'string') {
      batch.push([v[0], String(v[1]), v[2]]);
    }
  }
  if (batch.length) sink.events(batch);
}

export async function streamCast(url: string, headers: Record<string, string>, sink: CastSink, signal?: AbortSignal) {
  const res = await fetch(url, { headers, credentials: 'same-origin', signal });
  if (!res.ok || !res.body) throw new Error(String(res.status));
  const text = res.body.pipeThrough(new DecompressionStream('gzip')).pipeThrough(new TextDecoderStream());
  const reader = text.getReader();
  const split = new LineSplitter();
  const state = { header: false };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parseLines(split.push(value), sink, state);
  }
  parseLines(split.end(), sink, state);
}
