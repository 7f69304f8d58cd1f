/** The resource framework (docs/resource-framework.md): one declaration gives a resource its whole API. */
export { registerResource, permFor, findVisible } from './routes.ts';
export { listQuery } from './query.ts';
export { registerImportParsers } from './importParse.ts';
export { serializeOne, serializeRows } from './serialize.ts';
export { f } from './fields.ts';
export type { ResourceDef, FieldDef, ResourceCtx, Row, AnyQuery } from './types.ts';
