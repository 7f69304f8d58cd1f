import { Worker } from 'node:worker_threads';
import type { Limits } from '../platform/limitsConfig.ts';

/** The import limits a parse enforces (the environment's, see platform/limitsConfig.ts). */
export type ImportLimits = Pick<Limits, 'importRows' | 'importColumns' | 'importCellChars' | 'importUnzippedBytes'>;

/** A table over one of the import limits: which one, its value, and the row for a cell. */
export class ImportLimitError extends Error {
  constructor(
    readonly limit: 'rows' | 'columns' | 'cell' | 'unzipped',
    readonly max: number,
    readonly row?: number,
  ) {
    super(`import over its ${limit} limit (${max})`);
  }
}

const WORKER = new URL('./xlsxWorker.mjs', import.meta.url);
/** Parses at once; more wait their turn, so imports cannot take every core and the memory with them. */
const MAX_PARALLEL = 2;
/** A worker that outgrows this heap is stopped by V8 (the file is refused) instead of the server. */
const WORKER_HEAP_MB = 1024;

let running = 0;
const waiting: (() => void)[] = [];

async function slot(): Promise<() => void> {
  if (running >= MAX_PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

type Reply =
  { rows: string[][] } | { limit: { code: ImportLimitError['limit']; max: number; at?: number } } | { error: string };

/**
 * The first sheet of an XLSX as rows of cell texts (empty rows left out), parsed in a worker thread
 * (xlsxWorker.mjs) in time linear in its cells, so the event loop keeps serving while a large
 * file is read. Throws ImportLimitError over a limit, another Error for a file that is not XLSX.
 */
export async function parseXlsx(buf: Buffer, limits: ImportLimits): Promise<string[][]> {
  const release = await slot();
  try {
    const copy = new Uint8Array(buf).buffer;
    const worker = new Worker(WORKER, {
      workerData: { buffer: copy, limits },
      transferList: [copy],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    const reply = await new Promise<Reply>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`xlsx worker exited with ${code}`)));
    })
      .catch((e: NodeJS.ErrnoException) => {
        if (e.code === 'ERR_WORKER_OUT_OF_MEMORY') throw new ImportLimitError('unzipped', limits.importUnzippedBytes);
        throw e;
      })
      .finally(() => void worker.terminate());
    if ('rows' in reply) return reply.rows;
    if ('limit' in reply) throw new ImportLimitError(reply.limit.code, reply.limit.max, reply.limit.at);
    throw new Error(reply.error);
  } finally {
    release();
  }
}
