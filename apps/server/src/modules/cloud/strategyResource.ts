import { f, L } from '../../resource/fields.ts';
import type { ResourceDef, Row } from '../../resource/types.ts';
import { CM, cm } from './cloudMessages.ts';
import { actionProblem, ruleProblem, type StrategyAction, type StrategyRule } from './strategy.ts';

/**
 * Strategies (`/api/v1/xpack/cloud/strategies/`): name, priority (smaller first), rule relation,
 * `strategy_rules` and `strategy_actions` as lists inside the strategy (the original's separate
 * `strategy-rules/` and `strategy-actions/` objects are not separate here: docs/cloud.md). Every
 * rule and action is checked at save (strategy.ts), at most 50 of each.
 */
const MAX_ITEMS = 50;
const listOf = (v: unknown): unknown[] => {
  if (Array.isArray(v)) return v;
  try {
    const x = JSON.parse(String(v ?? '[]')) as unknown;
    return Array.isArray(x) ? x : [];
  } catch {
    return [];
  }
};

export const strategyResource: ResourceDef = {
  model: 'strategy',
  app: 'xpack',
  url: '/api/v1/xpack/cloud/strategies/',
  table: 'cloud_strategy',
  label: CM.model_strategy,
  orgScoped: true,
  defaultOrder: ['priority', 'name'],
  fieldsMini: ['id', 'name'],
  fields: {
    id: f.id(),
    name: f.string(L.name, { required: true, search: true, order: true }),
    priority: f.int(CM.f_priority, { default: 50, minValue: 1, maxValue: 100, order: true }),
    rule_relation: f.choice(
      CM.f_rule_relation,
      [
        { value: 'and', label: CM.relation_and },
        { value: 'or', label: CM.relation_or },
      ],
      { default: 'and' },
    ),
    strategy_rules: f.json(CM.f_rules, { default: [], column: 'rules', out: (v) => listOf(v) }),
    strategy_actions: f.json(CM.f_actions, { default: [], column: 'actions', out: (v) => listOf(v) }),
    rules_amount: f.computed('integer', CM.f_rules, (r) => listOf(r.rules).length),
    actions_amount: f.computed('integer', CM.f_actions, (r) => listOf(r.actions).length),
    comment: f.comment(),
    created_by: f.createdBy(),
    date_created: f.dateCreated(),
    date_updated: f.dateUpdated(),
  },
  hooks: {
    async validate(data: Row, ctx) {
      const lang = ctx.req.lang;
      for (const [field, check, key] of [
        ['strategy_rules', (x: unknown) => ruleProblem(x as StrategyRule), 'bad_rule'],
        ['strategy_actions', (x: unknown) => actionProblem(x as StrategyAction), 'bad_action'],
      ] as const) {
        if (data[field] === undefined) continue;
        const raw = data[field];
        const items = listOf(raw);
        if (!Array.isArray(raw) && typeof raw !== 'string')
          return { [field]: [cm(lang, key, { index: 1, problem: 'a list' })] };
        if (items.length > MAX_ITEMS)
          return { [field]: [cm(lang, key, { index: MAX_ITEMS + 1, problem: `at most ${MAX_ITEMS}` })] };
        for (const [i, item] of items.entries()) {
          const problem = item && typeof item === 'object' ? check(item) : 'not an object';
          if (problem) return { [field]: [cm(lang, key, { index: i + 1, problem })] };
        }
        const keep =
          field === 'strategy_rules'
            ? items.map((x) => {
                const r = x as StrategyRule;
                return { attr: r.attr, ...(r.key ? { key: String(r.key) } : {}), match: r.match, value: r.value };
              })
            : items.map((x) => ({ attr: (x as StrategyAction).attr, value: (x as StrategyAction).value }));
        data[field] = JSON.stringify(keep);
      }
      return undefined;
    },
  },
};
