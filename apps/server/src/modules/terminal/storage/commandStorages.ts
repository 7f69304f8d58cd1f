import http from 'node:http';
import https from 'node:https';
import type { Kysely } from 'kysely';
import { COMMAND_STORAGE_META } from '@gatehouse/contract';
import type { DB } from '../../../platform/db/schema.ts';
import type { SecretBox } from '../../../platform/crypto/secretBox.ts';
import { openedMeta, parseMeta, type Meta } from './storageMeta.ts';

/**
 * Command storages: the database keeps every command (the console's lists and search read it);
 * when an Elasticsearch/OpenSearch storage is the default, each session's commands are also sent
 * to it when the session ends (`forwardCommands`, one `_bulk` request, the documented bulk API:
 * https://www.elastic.co/guide/en/elasticsearch/reference/current/docs-bulk.html), to the index
 * `INDEX` or `INDEX-YYYY.MM.DD` by the command's date. The first host that answers takes the
 * request. A store that is down loses nothing in Gatehouse; the send is logged.
 */
const TIMEOUT_MS = 10_000;

interface EsConfig {
  hosts: string[];
  index: string;
  byDate: boolean;
  insecure: boolean;
  auth?: string;
}

function esConfig(meta: Meta): EsConfig {
  return {
    hosts: (meta.HOSTS ?? '')
      .split(',')
      .map((h) => h.trim().replace(/\/+$/, ''))
      .filter(Boolean),
    index: meta.INDEX || 'gatehouse',
    byDate: meta.INDEX_BY_DATE === 'true',
    insecure: meta.IGNORE_VERIFY_CERTS === 'true',
    ...(meta.USERNAME
      ? { auth: `Basic ${Buffer.from(`${meta.USERNAME}:${meta.PASSWORD ?? ''}`).toString('base64')}` }
      : {}),
  };
}

/** One HTTP(S) request (node:http, so IGNORE_VERIFY_CERTS can apply to this request alone). */
function send(url: URL, c: EsConfig, method: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? https : http).request(
      url,
      {
        method,
        timeout: TIMEOUT_MS,
        headers: {
          Accept: 'application/json',
          ...(body ? { 'Content-Type': 'application/x-ndjson', 'Content-Length': Buffer.byteLength(body) } : {}),
          ...(c.auth ? { Authorization: c.auth } : {}),
        },
        ...(url.protocol === 'https:' && c.insecure ? { rejectUnauthorized: false } : {}),
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

/** One request to the first host that answers; rejects with the last reason. */
async function esRequest(c: EsConfig, method: string, path: string, body?: string): Promise<unknown> {
  let last: unknown = new Error('no host');
  for (const host of c.hosts) {
    try {
      const res = await send(new URL(`${host}${path}`), c, method, body);
      if (res.status < 200 || res.status >= 300) throw new Error(`${res.status} ${res.text.slice(0, 200)}`);
      return res.text ? (JSON.parse(res.text) as unknown) : {};
    } catch (e) {
      last = e;
    }
  }
  throw last;
}

export interface CommandStorageRow {
  type: string;
  meta: string;
}

function configOf(row: CommandStorageRow, box: SecretBox): EsConfig {
  return esConfig(openedMeta(COMMAND_STORAGE_META.es, parseMeta(row.meta), box));
}

/** Rejects with the store's reason when it cannot be reached with these settings. */
export async function testCommandStorage(row: CommandStorageRow, box: SecretBox): Promise<void> {
  if (row.type !== 'es') return;
  await esRequest(configOf(row, box), 'GET', '/');
}

const indexFor = (c: EsConfig, ms: number) =>
  c.byDate ? `${c.index}-${new Date(ms).toISOString().slice(0, 10).replace(/-/g, '.')}` : c.index;

/** Sends a finished session's commands to the default command storage when it is Elasticsearch. */
export async function forwardCommands(
  deps: { db: Kysely<DB>; secretBox: SecretBox; log?: { info: (f: Record<string, unknown>, m: string) => void } },
  sessionId: string,
): Promise<void> {
  const storage = await deps.db
    .selectFrom('terminal_commandstorage')
    .selectAll()
    .where('is_default', '=', true)
    .executeTakeFirst()
    .catch(() => undefined);
  if (!storage || storage.type !== 'es') return;
  const rows = await deps.db
    .selectFrom('terminal_command')
    .selectAll()
    .where('session_id', '=', sessionId)
    .orderBy('timestamp_ms')
    .execute();
  if (!rows.length) return;
  try {
    const c = configOf(storage, deps.secretBox);
    const lines = rows.flatMap((r) => [
      JSON.stringify({ index: { _index: indexFor(c, Number(r.timestamp_ms)), _id: r.id } }),
      JSON.stringify({
        id: r.id,
        user: r.user,
        asset: r.asset,
        account: r.account,
        input: r.input,
        output: r.output,
        session: r.session_id,
        risk_level: r.risk_level,
        org_id: r.org_id,
        timestamp: Math.floor(Number(r.timestamp_ms) / 1000),
        remote_addr: r.remote_addr,
      }),
    ]);
    const answer = (await esRequest(c, 'POST', '/_bulk', `${lines.join('\n')}\n`)) as { errors?: boolean };
    if (answer.errors) throw new Error('some documents were refused');
  } catch (e) {
    deps.log?.info({ storage: storage.name, session: sessionId, err: (e as Error).message }, 'command forward failed');
  }
}
