import fs from 'node:fs';
import { createHmac } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { ReplayStorageType } from '@gatehouse/contract';
import { sftpStore } from './sftpStore.ts';

/**
 * The object stores a replay storage writes to. Every type but Azure speaks the S3 API (Ceph's
 * RADOS gateway, Swift's s3api middleware, and the S3-compatible endpoints of Alibaba OSS, Huawei
 * OBS and Tencent COS), through `@aws-sdk/client-s3`; Azure Blob Storage through its REST API with
 * Shared Key signing (https://learn.microsoft.com/rest/api/storageservices/authorize-with-shared-key).
 * `meta` holds the type's settings with secrets already opened.
 */
export interface ObjectStore {
  put(key: string, file: string): Promise<void>;
  /** Writes a small object from memory (a streamed recording's part, storage/replayStream.ts). */
  putBytes(key: string, body: Buffer): Promise<void>;
  /** The keys starting with `prefix`, in the store's (lexical) order. */
  list(prefix: string): Promise<string[]>;
  /** The object's bytes; rejects with `code: 'NotFound'` when it is not there. */
  get(key: string): Promise<Readable>;
  remove(key: string): Promise<void>;
  /** Rejects with the store's own message when the bucket cannot be reached with these settings. */
  test(): Promise<void>;
}

const TIMEOUT_MS = 10_000;

/** Path-style addressing for the stores that are usually self-hosted; the clouds want virtual hosts. */
const PATH_STYLE: ReadonlySet<ReplayStorageType> = new Set(['s3', 'ceph', 'swift']);

function s3Store(type: ReplayStorageType, meta: Record<string, string>): ObjectStore {
  const client = new S3Client({
    region: meta.REGION || 'us-east-1',
    ...(meta.ENDPOINT ? { endpoint: meta.ENDPOINT } : {}),
    forcePathStyle: PATH_STYLE.has(type),
    credentials: { accessKeyId: meta.ACCESS_KEY ?? '', secretAccessKey: meta.SECRET_KEY ?? '' },
    requestHandler: { requestTimeout: TIMEOUT_MS, connectionTimeout: TIMEOUT_MS },
    maxAttempts: 2,
    // Plain signed bodies: the S3-compatible stores (Ceph, OSS, COS, s3rver) do not all take the
    // chunked uploads with trailing checksums that the SDK sends by default.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = meta.BUCKET ?? '';
  return {
    async put(key, file) {
      const size = fs.statSync(file).size;
      await client.send(
        new PutObjectCommand({ Bucket, Key: key, Body: fs.createReadStream(file), ContentLength: size }),
      );
    },
    async putBytes(key, body) {
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentLength: body.length }));
    },
    async list(prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const out = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }),
        );
        for (const o of out.Contents ?? []) if (o.Key) keys.push(o.Key);
        token = out.IsTruncated ? out.NextContinuationToken : undefined;
      } while (token);
      return keys;
    },
    async get(key) {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return out.Body as Readable;
      } catch (e) {
        const name = (e as { name?: string }).name;
        if (name === 'NoSuchKey' || name === 'NotFound')
          throw Object.assign(new Error('not found'), { code: 'NotFound' });
        throw e;
      }
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async test() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
  };
}

const AZURE_VERSION = '2021-08-06';

/** The text of an XML element (Azure's listing escapes names). */
function xmlText(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

function azureStore(meta: Record<string, string>, base?: string): ObjectStore {
  const account = meta.ACCOUNT_NAME ?? '';
  const container = meta.CONTAINER_NAME ?? '';
  const key = Buffer.from(meta.ACCOUNT_KEY ?? '', 'base64');
  const root = base ?? `https://${account}.blob.${meta.ENDPOINT_SUFFIX || 'core.windows.net'}`;
  const call = async (
    method: string,
    blob: string,
    query: Record<string, string>,
    headers: Record<string, string>,
    body?: Buffer,
  ) => {
    const path = `/${container}${blob ? `/${blob.split('/').map(encodeURIComponent).join('/')}` : ''}`;
    const h: Record<string, string> = {
      'x-ms-date': new Date().toUTCString(),
      'x-ms-version': AZURE_VERSION,
      ...headers,
    };
    const length = body ? String(body.length) : '';
    const canonHeaders = Object.keys(h)
      .filter((n) => n.startsWith('x-ms-'))
      .sort()
      .map((n) => `${n}:${h[n]}\n`)
      .join('');
    const canonResource =
      `/${account}${path}` +
      Object.keys(query)
        .sort()
        .map((q) => `\n${q.toLowerCase()}:${query[q]}`)
        .join('');
    const contentType = h['Content-Type'] ?? '';
    const toSign = [method, '', '', length === '0' ? '' : length, '', contentType, '', '', '', '', '', ''].join('\n');
    const sig = createHmac('sha256', key).update(`${toSign}\n${canonHeaders}${canonResource}`, 'utf8').digest('base64');
    const qs = new URLSearchParams(query).toString();
    return fetch(`${root}${path}${qs ? `?${qs}` : ''}`, {
      method,
      headers: { ...h, Authorization: `SharedKey ${account}:${sig}` },
      ...(body ? { body: new Uint8Array(body) } : {}),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  };
  const ok = async (res: Response) => {
    if (res.ok) return res;
    const detail = (await res.text()).match(/<Message>([^<]*)/)?.[1] ?? res.statusText;
    throw Object.assign(new Error(`Azure ${res.status}: ${detail.split('\n')[0]}`), {
      code: res.status === 404 ? 'NotFound' : 'Azure',
    });
  };
  return {
    async put(blob, file) {
      const body = await fs.promises.readFile(file);
      await ok(
        await call('PUT', blob, {}, { 'x-ms-blob-type': 'BlockBlob', 'Content-Type': 'application/gzip' }, body),
      );
    },
    async putBytes(blob, body) {
      await ok(
        await call('PUT', blob, {}, { 'x-ms-blob-type': 'BlockBlob', 'Content-Type': 'application/gzip' }, body),
      );
    },
    async list(prefix) {
      const names: string[] = [];
      let marker = '';
      do {
        const query: Record<string, string> = { restype: 'container', comp: 'list', prefix };
        if (marker) query.marker = marker;
        const xml = await (await ok(await call('GET', '', query, {}))).text();
        for (const m of xml.matchAll(/<Blob>\s*<Name>([^<]*)<\/Name>/g)) names.push(xmlText(m[1]!));
        marker = xml.match(/<NextMarker>([^<]*)<\/NextMarker>/)?.[1] ?? '';
      } while (marker);
      return names;
    },
    async get(blob) {
      const res = await ok(await call('GET', blob, {}, {}));
      return Readable.fromWeb(res.body as never);
    },
    async remove(blob) {
      await ok(await call('DELETE', blob, {}, {}));
    },
    async test() {
      await ok(await call('GET', '', { restype: 'container' }, {}));
    },
  };
}

/** The store of a non-local storage type. */
export function objectStore(type: ReplayStorageType, meta: Record<string, string>): ObjectStore {
  if (type === 'sftp') return sftpStore(meta);
  return type === 'azure' ? azureStore(meta) : s3Store(type, meta);
}
