import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// s3rver ships no types; the few calls the tests make are typed here.
// @ts-expect-error -- no declaration file
import S3rver from 's3rver';

/**
 * A real S3-compatible server on loopback (`s3rver`, files under a temporary directory) with one
 * bucket. It checks request signatures: the only credentials it accepts are `S3RVER`/`S3RVER`.
 */
export interface TestS3 {
  endpoint: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
  /** The stored object's bytes, read from s3rver's directory, or undefined. */
  object(key: string): Buffer | undefined;
  stop(): Promise<void>;
}

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}

export async function startS3(bucket = 'replays'): Promise<TestS3> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-s3-'));
  const server = new (S3rver as new (o: object) => S3rverInstance)({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    object(key) {
      const file = path.join(dir, bucket, `${key}._S3rver_object`);
      return fs.existsSync(file) ? fs.readFileSync(file) : undefined;
    },
    async stop() {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
