import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findVisible, registerResource } from '../../../resource/routes.ts';
import { shape } from '../../../resource/describe.ts';
import { tr } from '../../../platform/i18n/catalogue.ts';
import { SM } from './messages.ts';
import { removeReplay, storeOf } from './replayStorages.ts';
import { setRecordingRemover } from '../../ops/retention.ts';
import { commandStorageResource, replayStorageResource } from './storageResource.ts';
import { testCommandStorage } from './commandStorages.ts';
import type { ResourceDef, Row } from '../../../resource/types.ts';
import type { SecretBox } from '../../../platform/crypto/secretBox.ts';
import { endpointResource, endpointRuleResource } from './endpointResources.ts';

/**
 * Terminal settings' storages and endpoints: `endpoints/`, `endpoint-rules/` (endpointResources.ts),
 * `replay-storages/`, `command-storages/` (storageResource.ts) and their `<id>/test-connective/`, which
 * reaches the store with the saved settings (HEAD of the bucket, or the Azure container's
 * properties; Elasticsearch's `GET /`) and answers `{is_valid, msg}` with the store's own reason when it fails.
 */
type IdReq = FastifyRequest<{ Params: { id: string } }>;

export function registerStorageRoutes(app: FastifyInstance): void {
  registerResource(app, replayStorageResource);
  registerResource(app, endpointResource);
  registerResource(app, endpointRuleResource);
  setRecordingRemover((deps, r) =>
    removeReplay({ db: deps.database.db, secretBox: deps.secretBox, dataDir: deps.config.dataDir }, r),
  );
  registerResource(app, commandStorageResource);
  // Reaches the store with its saved settings; the built-in ones (data directory, database) always answer.
  const testRoute = (def: ResourceDef, test: (row: Row, box: SecretBox) => Promise<void>) =>
    app.get(
      `${def.url}:id/test-connective/`,
      {
        config: {
          perm: `terminal.view_${def.model}`,
          describe: shape(def.label, { is_valid: 'boolean', msg: 'string' }),
        },
      },
      async (req: IdReq) => {
        const row = await findVisible(def, { req, db: req.db }, req.params.id);
        if (row.type === 'server') return { is_valid: true, msg: tr(req.lang, SM.local_ok) };
        try {
          await test(row, req.server.deps.secretBox);
          return { is_valid: true, msg: tr(req.lang, SM.storage_ok) };
        } catch (e) {
          const error = (e as Error).message || (e as { name?: string }).name || String(e);
          return { is_valid: false, msg: tr(req.lang, SM.storage_failed, { error: error.slice(0, 300) }) };
        }
      },
    );
  testRoute(replayStorageResource, (row, box) => storeOf(row as never, box)!.test());
  testRoute(commandStorageResource, (row, box) => testCommandStorage(row as never, box));
}
