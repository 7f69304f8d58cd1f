import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { findVisible, permFor, registerResource } from '../../resource/routes.ts';
import { pageOf, type Query } from '../../resource/query.ts';
import { pageOfResults } from '../../resource/pagination.ts';
import type { ResourceDef, Row } from '../../resource/types.ts';
import { am } from './aclMessages.ts';
import { ACL_RESOURCES, commandFilterAclResource, loginAssetAclResource } from './aclResources.ts';
import { groupPattern, invalidRegexLine, matchCommand } from './matcher/commandGroup.ts';
import { selects, type Selector } from './matcher/selector.ts';
import { loadAssets, loadUsers } from './subjects.ts';
import { shape } from '../../resource/describe.ts';

/** The access-control rules module (issue 16): five resources, what a rule's selectors match, and a command test. */
export function registerAclsModule(app: FastifyInstance): void {
  for (const def of ACL_RESOURCES) registerResource(app, def);
  for (const def of ACL_RESOURCES.filter((d) => d.model !== 'commandgroup')) registerMatchRoutes(app, def);
  registerCommandTestRoute(app);
}

type IdReq = FastifyRequest<{ Params: { id: string } }>;

function page<T>(req: FastifyRequest, items: T[]) {
  const p = pageOf(req.query as Query);
  if (!p) return items;
  return pageOfResults(req, p, items.length, items.slice(p.offset, p.offset + p.limit));
}

/**
 * `GET <rule>/<id>/users/` and, for rules on assets, `<rule>/<id>/assets/`: the objects the
 * rule's selector picks now (members of the rule's org; every user for rules outside orgs),
 * through the same matcher as enforcement. Needs the rule's view permission and the objects'.
 */
function registerMatchRoutes(app: FastifyInstance, def: ResourceDef): void {
  const view = permFor(def, 'retrieve');
  const users = shape('user', { id: 'string', name: 'string', username: 'string', email: 'string' });
  app.get(
    `${def.url}:id/users/`,
    { config: { perm: [view, 'users.view_user'], describe: users } },
    async (req: IdReq) => {
      const ctx = { req, db: req.db };
      const rule = await findVisible(def, ctx, req.params.id);
      const selector = parse(rule.users);
      const users = await loadUsers(req.db, {
        ...(selector?.type === 'ids' ? { ids: selector.ids } : {}),
        ...(def.orgScoped ? { orgId: String(rule.org_id) } : {}),
      });
      const picked = users.filter((u) => selects(selector, u.id, u.attrs));
      return page(
        req,
        picked.map((u) => ({ id: u.id, name: u.row.name, username: u.row.username, email: u.row.email })),
      );
    },
  );
  if (def !== loginAssetAclResource && def !== commandFilterAclResource) return;
  const assets = shape('asset', { id: 'string', name: 'string', address: 'string', platform: 'object_related_field' });
  app.get(
    `${def.url}:id/assets/`,
    { config: { perm: [view, 'assets.view_asset'], describe: assets } },
    async (req: IdReq) => {
      const ctx = { req, db: req.db };
      const rule = await findVisible(def, ctx, req.params.id);
      const selector = parse(rule.assets);
      const assets = await loadAssets(req.db, {
        orgId: String(rule.org_id),
        ...(selector?.type === 'ids' ? { ids: selector.ids } : {}),
      });
      const picked = assets.filter((a) => selects(selector, a.id, a.attrs));
      return page(
        req,
        picked.map((a) => ({
          id: a.id,
          name: a.row.name,
          address: a.row.address,
          platform: { id: Number(a.row.platform_id), name: a.row.platform_name },
        })),
      );
    },
  );
}

function parse(raw: unknown): Selector | undefined {
  try {
    return (typeof raw === 'string' ? JSON.parse(raw) : raw) as Selector;
  } catch {
    return undefined;
  }
}

/**
 * `POST /api/v1/acls/command-groups/test/` `{type, content, ignore_case, command}` →
 * `{matched, text, pattern}`: the console's "test a command" box, on the group as edited (saved
 * or not), with the gateway's matcher.
 */
const MAX_TEST_COMMAND = 4096;

function registerCommandTestRoute(app: FastifyInstance): void {
  app.post(
    '/api/v1/acls/command-groups/test/',
    { config: { perm: 'acls.view_commandgroup' } },
    async (req: FastifyRequest<{ Body: Row }>) => {
      const body = req.body && typeof req.body === 'object' ? req.body : {};
      const type = body.type === 'regex' ? 'regex' : 'command';
      const content = typeof body.content === 'string' ? body.content : '';
      const command = typeof body.command === 'string' ? body.command : '';
      const ignoreCase =
        body.ignore_case === undefined ? true : body.ignore_case === true || body.ignore_case === 'true';
      const errors: Record<string, string[]> = {};
      if (!content.trim()) errors.content = [am(req.lang, 'content_empty')];
      if (!command.trim()) errors.command = [am(req.lang, 'command_required')];
      else if (command.length > MAX_TEST_COMMAND)
        errors.command = [am(req.lang, 'command_too_long', { n: MAX_TEST_COMMAND })];
      const bad = type === 'regex' ? invalidRegexLine(content) : undefined;
      if (bad)
        errors.content = [
          am(req.lang, bad.nested ? 'regex_nested' : 'regex_invalid', { error: bad.error, line: bad.line }),
        ];
      if (Object.keys(errors).length) throw new ApiError(400, errors);
      const group = { type, content, ignore_case: ignoreCase } as const;
      const text = matchCommand(group, command);
      return { matched: text !== undefined, text: text ?? '', pattern: groupPattern(group) };
    },
  );
}
