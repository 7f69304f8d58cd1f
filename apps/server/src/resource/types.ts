import type { FastifyRequest } from 'fastify';
import type { Expression, Kysely, SelectQueryBuilder, SqlBool } from 'kysely';
import type { I18nText } from '@gatehouse/contract';
import type { DB } from '../platform/db/schema.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- rows, query builders and table names are dynamic by nature here */
export type Row = Record<string, any>;
export type AnyQuery = SelectQueryBuilder<DB, any, any>;
/** The framework works on tables named at run time; resource declarations keep the typing. */
export type AnyDb = Kysely<any>;
/* eslint-enable @typescript-eslint/no-explicit-any */

/** OPTIONS type names of the JumpServer API. */
export type FieldType =
  | 'string'
  | 'email'
  | 'integer'
  | 'boolean'
  | 'datetime'
  | 'date'
  | 'choice'
  | 'labeled_choice'
  | 'object_related_field'
  | 'm2m_related_field'
  | 'json'
  | 'list'
  | 'nested object'
  | 'tree'
  | 'field';

export interface Choice {
  value: string | number | boolean;
  label: I18nText;
}

/** A node of a `tree` field's OPTIONS `tree` (bit choices grouped, e.g. permission actions). */
export interface TreeChoice {
  value: string;
  label: I18nText;
  children?: TreeChoice[];
}

/** What a handler knows about the request it serves. */
export interface ResourceCtx {
  req: FastifyRequest;
  db: Kysely<DB>;
  /** Set while a bulk PUT/PATCH on the list is validated and applied. */
  bulk?: boolean;
  /**
   * Set while a list is searched within a bounded window of rows (`ResourceDef.longList`): a
   * `searchWith` may then test each row instead of asking an index, which would read every match.
   */
  rowScan?: boolean;
  /**
   * Work to do once the write's transaction has committed (messages about the new row: they read
   * it, and must not go out for a write that rolls back); `afterCommit` in write.ts fills it.
   */
  committed?: (() => Promise<unknown> | void)[];
}

export function dyn(ctx: ResourceCtx): AnyDb {
  return ctx.db as unknown as AnyDb;
}

/** A many-to-many relation stored in a link table (or in role bindings, with extra columns). */
export interface M2MDef {
  /** The related table and its label column. */
  table: keyof DB & string;
  labelColumn?: string;
  /** Extra attributes to output beside id and name, e.g. `display_name`. */
  output?: (related: Row, ctx: ResourceCtx) => Row;
  through: {
    table: keyof DB & string;
    /** Column holding this resource's id. */
    left: string;
    /** Column holding the related id. */
    right: string;
    /** Restricts which link rows belong to this field (e.g. scope = 'system'). */
    where?: (ctx: ResourceCtx) => Record<string, unknown>;
    /** Extra columns for new link rows. */
    values?: (ctx: ResourceCtx) => Record<string, unknown>;
    /** Whether link rows have their own uuid `id` column. */
    hasId?: boolean;
  };
  /** Limits the related objects that may be chosen (e.g. groups of the current org). */
  choosable?: (q: AnyQuery, ctx: ResourceCtx) => AnyQuery;
}

export interface FkDef {
  table: keyof DB & string;
  labelColumn?: string;
  /** The output object from the related row (default `{id, name}`). */
  output?: (related: Row, ctx: ResourceCtx) => Row;
  choosable?: (q: AnyQuery, ctx: ResourceCtx) => AnyQuery;
}

export type Validator = (
  value: unknown,
  ctx: ResourceCtx & { id?: string; data: Row },
) => string | undefined | Promise<string | undefined>;

export interface FieldDef {
  type: FieldType;
  label: I18nText;
  helpText?: I18nText;
  required?: boolean;
  readOnly?: boolean;
  writeOnly?: boolean;
  /** Sent encrypted by the console (a password, a secret): decrypted before anything reads it (secretFields.ts). */
  encrypted?: boolean;
  /** Used on create when the field is absent; shown in OPTIONS when primitive. */
  default?: unknown | ((ctx: ResourceCtx) => unknown);
  choices?: Choice[];
  maxLength?: number;
  minValue?: number;
  maxValue?: number;
  /** Unique across the table (within the org for org-scoped resources). */
  unique?: boolean;
  /** Storage column; defaults to the field name. `false` = not stored (computed or written by a hook). */
  column?: string | false;
  search?: boolean;
  /** How a search term matches this field (e.g. through a text index); default: case-insensitive contains. */
  searchWith?: (ctx: ResourceCtx, term: string) => Expression<SqlBool>;
  /** Exact-match filter on the column, or a custom one. */
  filter?: boolean | ((q: AnyQuery, value: string, ctx: ResourceCtx) => AnyQuery | Promise<AnyQuery>);
  order?: boolean;
  fk?: FkDef;
  m2m?: M2MDef;
  /**
   * Turns the stored value of a writable field into its output (e.g. a bit mask into names); `row`
   * for an output that depends on another column (a storage's settings on its type).
   */
  out?: (stored: unknown, ctx: ResourceCtx, row: Row) => unknown;
  /** For `tree`: the OPTIONS `tree` (choices grouped). */
  tree?: TreeChoice[];
  /** Computes the output from the stored row (read-only fields). */
  read?: (row: Row, ctx: ResourceCtx) => unknown;
  /**
   * Replaces the type's coercion of an input value (e.g. a relation given by name, `name:value`
   * labels); returns the stored value (relation ids for m2m) or an error message.
   */
  parse?: (value: unknown, ctx: ResourceCtx) => Promise<{ value?: unknown; error?: string }>;
  /** Turns accepted input into the stored value (e.g. hashing a password). */
  toStorage?: (value: unknown, ctx: ResourceCtx) => unknown | Promise<unknown>;
  validate?: Validator[];
  /** Left out of CSV/XLSX exports. */
  noExport?: boolean;
  /** For `list`: the type of the items (OPTIONS `child`). */
  child?: { type: FieldType };
}

export type Action =
  | 'list'
  | 'retrieve'
  | 'create'
  | 'update'
  | 'partial_update'
  | 'destroy'
  | 'bulk_update'
  | 'bulk_destroy'
  | 'metadata';

export interface WriteEvent {
  ctx: ResourceCtx;
  id: string;
  /** Validated input that was applied (storage values and relation ids). */
  data: Row;
  before?: Row;
}

export interface ResourceDef {
  /** Model name for permissions (`users.view_user`) and exports (`user_<date>.csv`). */
  model: string;
  app: string;
  url: string;
  table: keyof DB & string;
  label: I18nText;
  orgScoped: boolean;
  fields: Record<string, FieldDef>;
  /** Field names shown for `fields_size=mini` and `small`. */
  fieldsMini?: string[];
  fieldsSmall?: string[];
  defaultOrder: string[];
  /**
   * Lists of millions of rows (commands; routes.ts `listResponse`): the page's `count` stops at
   * `countCap` (a count of the cap means "at least"). With a `window` (per request: it may depend on
   * the database), a page is first looked for among the newest `window` rows in the default order
   * (its first column indexed and never NULL), searched with `ctx.rowScan`; when they fill the page
   * it is the answer (the window is a prefix of the order, so it holds the first matches), else the
   * plain query runs. So a common term's first pages cost the window, not every match.
   */
  longList?: { countCap: number; window?: (ctx: ResourceCtx) => number | undefined };
  /** Query parameters that filter without being fields (e.g. `user__username`). */
  extraFilters?: Record<string, (q: AnyQuery, value: string, ctx: ResourceCtx) => AnyQuery | Promise<AnyQuery>>;
  /** Column filtered by `date_from` / `date_to`. */
  dateRangeField?: string;
  /** The display name of a row in logs and messages. */
  nameOf?: (row: Row) => string;
  /** Loads per-row data that computed fields read (e.g. login blocks), once per page of rows. */
  prepare?: (rows: Row[], ctx: ResourceCtx) => Promise<void>;
  /** The id of a new row (default: a uuid); e.g. integer ids of platforms. */
  newId?: (ctx: ResourceCtx) => Promise<string | number>;
  /** Narrows a query to the row a detail URL names (default: `id = <param>`); e.g. id or name. */
  lookup?: (q: AnyQuery, param: string, ctx: ResourceCtx) => AnyQuery;
  /** Restricts every query (e.g. users: members of the current org). */
  scope?: (q: AnyQuery, ctx: ResourceCtx) => AnyQuery;
  /**
   * The RBAC model its permissions name, when it is not `model`: the asset kinds (`hosts/`,
   * `databases/`, ...) all check `assets.<verb>_asset`.
   */
  permModel?: string;
  /** Permission overrides per action (default: view/add/change/delete of the permission model). */
  perms?: Partial<Record<Action, string>>;
  hooks?: {
    /** Checks the whole object after field validation; returns field errors. */
    validate?: (
      data: Row,
      ctx: ResourceCtx & { id?: string; before?: Row },
    ) => Promise<Record<string, string[]> | undefined>;
    /**
     * Refuses a write before its body is validated (throws an ApiError): a create (`before`
     * undefined, e.g. an abstract list) or an update of `before` (e.g. a builtin object).
     */
    beforeValidate?: (body: unknown, ctx: ResourceCtx, before?: Row) => Promise<void> | void;
    /** Fills stored columns not covered by fields (e.g. defaults computed from other fields). */
    beforeInsert?: (values: Row, data: Row, ctx: ResourceCtx) => Promise<void> | void;
    /**
     * After validation of a create: returns the row to answer with instead of creating one (e.g.
     * an existing account kept or updated by `on_invalid`), or undefined to create as usual.
     */
    createInstead?: (data: Row, ctx: ResourceCtx, def: ResourceDef) => Promise<Row | undefined>;
    afterCreate?: (e: WriteEvent) => Promise<void> | void;
    afterUpdate?: (e: WriteEvent) => Promise<void> | void;
    /** Throws an ApiError to refuse. */
    beforeDelete?: (row: Row, ctx: ResourceCtx) => Promise<void> | void;
    /** After rows were deleted, in the same transaction (e.g. recounting what referenced them). */
    afterDelete?: (rows: Row[], ctx: ResourceCtx) => Promise<void> | void;
    /** Refuses a bulk delete that would go too far (e.g. all users). */
    beforeBulkDelete?: (ids: string[], ctx: ResourceCtx) => Promise<void> | void;
  };
}
