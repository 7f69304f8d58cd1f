import { ApiError } from '../../../http/errors.ts';
import { f } from '../../../resource/fields.ts';
import type { FieldDef, ResourceCtx, ResourceDef } from '../../../resource/types.ts';
import { tr } from '../../../platform/i18n/catalogue.ts';
import { invalidIpItem } from '../../acls/matcher/ipGroup.ts';
import { DEFAULT_ENDPOINT_ID } from '../../../platform/db/migrations/m1250_terminal_storages.ts';
import { CONFIGURED_DEFAULT_PORTS, withConfiguredPorts } from './endpoints.ts';
import { SM } from './messages.ts';

/**
 * `terminal/endpoints/` and `terminal/endpoint-rules/` (system-wide, `terminal.*_endpoint|endpointrule`).
 * The built-in `Default` endpoint cannot be deleted, and its configured ports (endpoints.ts
 * `CONFIGURED_DEFAULT_PORTS`) are answered from this instance's configuration. An endpoint that a
 * rule names cannot be deleted until the rule is changed.
 */
const port = (name: string, dflt: number): FieldDef =>
  f.int({ en: name, zh: name, ja: name }, { default: dflt, minValue: 0, maxValue: 65535 });

/** A host name or an IP address, nothing more: it goes into URLs and `ssh -p` lines. */
const HOST_RE =
  /^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:]*:[0-9a-fA-F:.]+|[A-Za-z0-9]([A-Za-z0-9-]{0,62})?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62})?)*)$/;

export const endpointResource: ResourceDef = {
  model: 'endpoint',
  app: 'terminal',
  url: '/api/v1/terminal/endpoints/',
  table: 'terminal_endpoint',
  label: SM.model_endpoint,
  orgScoped: false,
  defaultOrder: ['name'],
  fields: {
    id: f.id(),
    name: f.string(SM.field_name, { required: true, search: true, order: true, unique: true, filter: true }),
    host: f.string(SM.field_host, {
      default: '',
      maxLength: 256,
      search: true,
      validate: [(v, ctx) => (v === '' || HOST_RE.test(String(v)) ? undefined : tr(ctx.req.lang, SM.endpoint_host))],
    }),
    https_port: port('HTTPS', 443),
    http_port: port('HTTP', 80),
    ssh_port: port('SSH', 2222),
    rdp_port: port('RDP', 3389),
    mysql_port: port('MySQL', 33061),
    mariadb_port: port('MariaDB', 33062),
    postgresql_port: port('PostgreSQL', 54320),
    redis_port: port('Redis', 63790),
    comment: f.comment(),
    created_by: f.createdBy(),
    date_created: f.dateCreated(),
    date_updated: f.dateUpdated(),
  },
  // The Default endpoint's configured ports are this instance's listeners.
  async prepare(rows, ctx) {
    const config = ctx.req.server.deps.config;
    for (const r of rows) if (r.id === DEFAULT_ENDPOINT_ID) Object.assign(r, withConfiguredPorts(r as never, config));
  },
  hooks: {
    async validate(data, ctx) {
      if (ctx.id !== DEFAULT_ENDPOINT_ID) return undefined;
      for (const k of Object.keys(CONFIGURED_DEFAULT_PORTS)) delete data[k];
      return undefined;
    },
    beforeDelete(row, ctx) {
      return refuseUsedEndpoints(ctx, [String(row.id)]);
    },
    beforeBulkDelete(ids, ctx) {
      return refuseUsedEndpoints(ctx, ids);
    },
  },
};

async function refuseUsedEndpoints(ctx: ResourceCtx, ids: string[]): Promise<void> {
  const lang = ctx.req.lang;
  if (ids.includes(DEFAULT_ENDPOINT_ID)) throw new ApiError(400, { error: tr(lang, SM.builtin_endpoint) });
  const used = await ctx.db
    .selectFrom('terminal_endpointrule')
    .select('name')
    .where('endpoint_id', 'in', ids)
    .executeTakeFirst();
  if (used) throw new ApiError(400, { error: tr(lang, SM.endpoint_in_use, { rule: used.name }) });
}

export const endpointRuleResource: ResourceDef = {
  model: 'endpointrule',
  app: 'terminal',
  url: '/api/v1/terminal/endpoint-rules/',
  table: 'terminal_endpointrule',
  label: SM.model_endpointrule,
  orgScoped: false,
  defaultOrder: ['priority', 'name'],
  fields: {
    id: f.id(),
    name: f.string(SM.field_name, { required: true, search: true, order: true, unique: true, filter: true }),
    ip_group: f.list(SM.field_ip_group, {
      default: ['*'],
      parse: async (v, ctx) => {
        if (!Array.isArray(v)) return { error: tr(ctx.req.lang, SM.ip_group_invalid, { value: String(v) }) };
        const items = v.map((i) => String(i).trim()).filter(Boolean);
        if (!items.length || items.length > 200) return { error: tr(ctx.req.lang, SM.ip_group_invalid, { value: '' }) };
        const bad = invalidIpItem(items);
        if (bad) return { error: tr(ctx.req.lang, SM.ip_group_invalid, { value: bad.item }) };
        return { value: JSON.stringify(items) };
      },
    }),
    priority: f.int(SM.field_priority, { default: 50, minValue: 1, maxValue: 100, order: true }),
    endpoint: f.fk(SM.field_endpoint, { table: 'terminal_endpoint' }, { required: true, filter: true }),
    is_active: f.bool(SM.field_is_active, { default: true, filter: true }),
    comment: f.comment(),
    created_by: f.createdBy(),
    date_created: f.dateCreated(),
    date_updated: f.dateUpdated(),
  },
};
