import { f, L } from '../../resource/fields.ts';
import type { ResourceDef } from '../../resource/types.ts';
import { am, M } from './aclMessages.ts';
import { groupPattern, invalidRegexLine } from './matcher/commandGroup.ts';

/**
 * Command groups: plain commands or regular expressions, one per line.
 * `pattern` shows the regex the gateway receives (plain commands turned into a regex by
 * matcher/commandGroup.ts).
 */
export const commandGroupResource: ResourceDef = {
  model: 'commandgroup',
  app: 'acls',
  url: '/api/v1/acls/command-groups/',
  table: 'acls_commandgroup',
  label: M.model_commandgroup,
  orgScoped: true,
  defaultOrder: ['name'],
  fieldsMini: ['id', 'name'],
  fields: {
    id: f.id(),
    name: f.string(L.name, { required: true, unique: true, search: true, filter: true, order: true }),
    type: f.choice(
      M.field_type,
      [
        { value: 'command', label: M.type_command },
        { value: 'regex', label: M.type_regex },
      ],
      { default: 'command', filter: true },
    ),
    content: f.text(M.field_content, {
      required: true,
      helpText: M.help_content,
      maxLength: 65536,
    }),
    ignore_case: f.bool(M.field_ignore_case, { default: true }),
    pattern: f.computed('string', M.field_pattern, (r) => groupPattern({ type: r.type, content: r.content })),
    comment: f.comment(),
    created_by: f.createdBy(),
    date_created: f.dateCreated(),
    date_updated: f.dateUpdated(),
  },
  hooks: {
    async validate(data, ctx) {
      const type = data.type ?? ctx.before?.type;
      const content = String(data.content ?? ctx.before?.content ?? '');
      if (type !== 'regex') return undefined;
      const bad = invalidRegexLine(content);
      return bad
        ? {
            content: [
              am(ctx.req.lang, bad.nested ? 'regex_nested' : 'regex_invalid', { error: bad.error, line: bad.line }),
            ],
          }
        : undefined;
    },
  },
};
