import { Writable } from 'node:stream';

/**
 * Log lines for a person at a terminal (LOG_FORMAT=pretty, the default on a terminal): the logger
 * writes one JSON object a line, and this stream prints each as
 * `14:02:03.412 INFO  GET /api/v1/users/users/ 200 12 ms admin` for a request, or
 * `14:02:03.412 WARN  sign-in refused username=bob ip=127.0.0.1 reason=password_failed` otherwise:
 * the time in the server's zone, the level, the message, then the other fields as key=value.
 * Not on a terminal (a service manager, a file, a collector) the JSON is kept as it is.
 */
const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
const COLOURS: Record<number, string> = { 40: '\x1b[33m', 50: '\x1b[31m', 60: '\x1b[31m' };
/** Fields every line has, or that the line's own shape shows. */
const SKIP = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'req', 'res', 'responseTime']);

function clock(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

function value(v: unknown): string {
  if (typeof v === 'string') return /[\s"=]/.test(v) || v === '' ? JSON.stringify(v) : v;
  if (v && typeof v === 'object' && 'message' in v) return JSON.stringify((v as { message: unknown }).message);
  return JSON.stringify(v);
}

/** One JSON log line as a readable line (without its newline); a line that is not JSON as it is. */
export function prettyLine(json: string, colour = false): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const level = Number(o.level);
  // A request line (http/requestLog.ts): `GET /path 200 12 ms user`.
  if (o.msg === 'request' && typeof o.method === 'string') {
    const { method, path, status, ms, user, ...rest } = o;
    o = { ...rest, msg: `${method} ${path} ${status} ${ms} ms${user ? ` ${user}` : ''}` };
  }
  const tag = LEVELS[level] ?? String(o.level);
  const fields = Object.entries(o)
    .filter(([k, v]) => !SKIP.has(k) && v !== undefined)
    .map(([k, v]) => `${k}=${value(v)}`);
  const head = `${clock(Number(o.time) || Date.now())} ${colour && COLOURS[level] ? `${COLOURS[level]}${tag}\x1b[0m` : tag} ${String(o.msg ?? '')}`;
  return fields.length ? `${head} ${fields.join(' ')}` : head;
}

/** A destination for the logger that writes readable lines to `out`. */
export function prettyStream(out: NodeJS.WritableStream & { isTTY?: boolean }): Writable {
  let rest = '';
  return new Writable({
    write(chunk: Buffer, _enc, done) {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const l of lines) if (l) out.write(`${prettyLine(l, Boolean(out.isTTY))}\n`);
      done();
    },
  });
}
