import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/**
 * Counts the queries run through one Kysely handle. Each request gets its own handle
 * (`db.withPlugin(new QueryCounter(...))`) so the count feeds its SQL-count header.
 */
export class QueryCounter implements KyselyPlugin {
  constructor(private readonly target: { count: number }) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.target.count++;
    return args.result;
  }
}
