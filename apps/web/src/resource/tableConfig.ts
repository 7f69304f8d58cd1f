import { urlPath } from './resourceUrl.ts';

/**
 * Per-table choices kept in localStorage `tableConfig` (`table`):
 * `{ <table key>: {showColumns}, paginationSize }`.
 */
const STORAGE_KEY = 'tableConfig';
export const PAGE_SIZES = [15, 30, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 15;

type Store = Record<string, unknown> & { paginationSize?: number };

function read(): Store {
  try {
    const v = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Store) : {};
  } catch {
    return {};
  }
}

function write(store: Store): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(store));
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The table's storage key: its given name, else its URL path with ids replaced by `*`. */
export function tableKey(name: string | undefined, url: string): string {
  return name ?? urlPath(url).replace(UUID, '*');
}

export function readShownColumns(table: string): string[] | undefined {
  const entry = read()[table] as { showColumns?: unknown } | undefined;
  return Array.isArray(entry?.showColumns) ? (entry.showColumns as string[]) : undefined;
}

/** Saves the columns a person chose; `undefined` restores the default. */
export function saveShownColumns(table: string, columns: string[] | undefined): void {
  const store = read();
  if (columns) store[table] = { ...(store[table] as object | undefined), showColumns: columns };
  else delete store[table];
  write(store);
}

export function readPageSize(): number {
  const n = read().paginationSize;
  return (PAGE_SIZES as readonly number[]).includes(n ?? 0) ? n! : DEFAULT_PAGE_SIZE;
}

export function savePageSize(size: number): void {
  write({ ...read(), paginationSize: size });
}
