import { nextRow, recordResult, settle, type ImportRow, type ImportState } from './importMachine.ts';

export interface ImportRunnerDeps {
  get(): ImportState;
  set(state: ImportState): void;
  /** Sends one row; rejects with the reason to show on the row. */
  send(row: ImportRow): Promise<void>;
  describeError(e: unknown): string;
  sleep(ms: number): Promise<void>;
}

export const ROW_PAUSE_MS = 100;

/** Sends pending rows one by one, 100 ms apart, until none is left or the task is stopped. */
export async function runImport(deps: ImportRunnerDeps): Promise<void> {
  for (;;) {
    const index = nextRow(deps.get());
    if (index < 0) break;
    let result: 'ok' | { error: string };
    try {
      await deps.send(deps.get().rows[index]!);
      result = 'ok';
    } catch (e) {
      result = { error: deps.describeError(e) };
    }
    deps.set(recordResult(deps.get(), index, result));
    await deps.sleep(ROW_PAUSE_MS);
  }
  deps.set(settle(deps.get()));
}
