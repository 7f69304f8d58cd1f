import type { FastifyRequest } from 'fastify';
import { defaultStorage, storeOf } from './replayStorages.ts';

/** How long the store may take before health calls it unreachable (a balancer polls every few seconds). */
const STORE_TIMEOUT_MS = 3_000;

/**
 * `/api/health/`'s `storage` check (modules/health): the default replay storage answers (HEAD of
 * its bucket) within STORE_TIMEOUT_MS; the built-in local storage always does.
 */
export async function defaultStoreReachable(req: FastifyRequest): Promise<void> {
  const row = await defaultStorage(req.db);
  const store = row && storeOf(row, req.server.deps.secretBox);
  if (!store) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('store timed out')), STORE_TIMEOUT_MS);
  });
  try {
    await Promise.race([store.test(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
