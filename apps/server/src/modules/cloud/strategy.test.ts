import { describe, expect, it } from 'vitest';
import {
  decide,
  ruleMatches,
  ruleProblem,
  actionProblem,
  type CloudInstance,
  type Strategy,
  type StrategyRule,
} from './strategy.ts';

/** Strategy matching (docs/cloud.md, "Strategies"): a table of instances, rules and what they decide. */
const web: CloudInstance = {
  instance_id: 'i-0abc',
  name: 'web-prod-01',
  address: '10.0.1.5',
  region: 'eu-west-1',
  os: 'linux',
  tags: { env: 'prod', team: 'Web' },
};
const win: CloudInstance = { ...web, instance_id: 'i-0def', name: 'ad-01', os: 'windows', tags: { env: 'dev' } };

const rule = (r: Partial<StrategyRule>): StrategyRule => ({ attr: 'name', match: 'equals', value: '', ...r });

describe('one rule', () => {
  it.each<[string, CloudInstance, Partial<StrategyRule>, boolean]>([
    ['name equals, any case', web, { attr: 'name', match: 'equals', value: 'WEB-prod-01' }, true],
    ['name startswith', web, { attr: 'name', match: 'startswith', value: 'web-' }, true],
    ['name endswith miss', web, { attr: 'name', match: 'endswith', value: '-02' }, false],
    ['name contains', web, { attr: 'name', match: 'contains', value: 'prod' }, true],
    ['name regex', web, { attr: 'name', match: 'regex', value: '^web-(prod|stage)-\\d+$' }, true],
    ['regex miss', win, { attr: 'name', match: 'regex', value: '^web-' }, false],
    ['os equals', win, { attr: 'os', match: 'equals', value: 'windows' }, true],
    ['region in a list', web, { attr: 'region', match: 'in', value: 'us-east-1, eu-west-1' }, true],
    ['region not in the list', web, { attr: 'region', match: 'in', value: 'us-east-1' }, false],
    ['tag equals, value any case', web, { attr: 'tag', key: 'team', match: 'equals', value: 'web' }, true],
    ['tag missing never equals', win, { attr: 'tag', key: 'team', match: 'equals', value: 'web' }, false],
    ['tag missing is "not equals"', win, { attr: 'tag', key: 'team', match: 'not_equals', value: 'web' }, true],
    ['address startswith', web, { attr: 'address', match: 'startswith', value: '10.0.' }, true],
    ['instance id', web, { attr: 'instance_id', match: 'equals', value: 'i-0abc' }, true],
    ['a bad regex matches nothing', web, { attr: 'name', match: 'regex', value: '(' }, false],
  ])('%s', (_n, inst, r, expected) => {
    expect(ruleMatches(inst, rule(r))).toBe(expected);
  });
});

describe('checks when a strategy is saved', () => {
  it.each<[Partial<StrategyRule>, string | undefined]>([
    [{ match: 'regex', value: '^web' }, undefined],
    [{ match: 'regex', value: '(' }, 'not a regular expression: ('],
    [{ match: 'regex', value: '(a+)+$' }, 'the pattern may run too long: (a+)+$'],
    [{ match: 'regex', value: '(\\w+)\\1' }, 'the pattern may run too long: (\\w+)\\1'],
    [{ match: 'regex', value: 'x'.repeat(201) }, 'a pattern is at most 200 characters'],
    [{ attr: 'tag', match: 'equals', value: 'x' }, 'a tag rule needs the tag key'],
    [{ match: 'like' as never, value: 'x' }, 'unknown match like'],
  ])('%j -> %s', (r, problem) => {
    expect(ruleProblem(rule(r))).toBe(problem);
  });
  it('actions', () => {
    expect(actionProblem({ attr: 'protocol', value: 'ssh/22' })).toBeUndefined();
    expect(actionProblem({ attr: 'protocol', value: 'ssh/70000' })).toMatch(/name\/port/);
    expect(actionProblem({ attr: 'label', value: 'env' })).toMatch(/name:value/);
    expect(actionProblem({ attr: 'node', value: '' })).toBe('the value is required');
  });
});

const s = (o: Partial<Strategy>): Strategy => ({
  id: o.name ?? 'x',
  name: 'x',
  priority: 50,
  rule_relation: 'and',
  rules: [],
  actions: [],
  ...o,
});

describe('strategies in priority order', () => {
  const strategies: Strategy[] = [
    s({
      name: 'everything',
      priority: 100,
      actions: [
        { attr: 'node', value: 'node-all' },
        { attr: 'platform', value: 'Linux' },
        { attr: 'protocol', value: 'ssh/22' },
      ],
    }),
    s({
      name: 'windows',
      priority: 10,
      rules: [rule({ attr: 'os', match: 'equals', value: 'windows' })],
      actions: [
        { attr: 'platform', value: 'Windows' },
        { attr: 'protocol', value: 'rdp/3389' },
        { attr: 'node', value: 'node-win' },
      ],
    }),
    s({
      name: 'prod web',
      priority: 20,
      rules: [
        rule({ attr: 'tag', key: 'env', match: 'equals', value: 'prod' }),
        rule({ attr: 'name', match: 'startswith', value: 'web' }),
      ],
      actions: [
        { attr: 'node', value: 'node-prod' },
        { attr: 'label', value: 'env:prod' },
        { attr: 'protocol', value: 'ssh/2222' },
        { attr: 'account', value: 'tmpl-root' },
      ],
    }),
    s({
      name: 'either',
      priority: 30,
      rule_relation: 'or',
      rules: [
        rule({ attr: 'region', match: 'equals', value: 'nowhere' }),
        rule({ attr: 'tag', key: 'env', match: 'equals', value: 'dev' }),
      ],
      actions: [{ attr: 'label', value: 'env:dev' }],
    }),
  ];

  it.each<[string, CloudInstance, Partial<ReturnType<typeof decide>>]>([
    [
      'a prod web host: its own strategy first, then the catch-all; the first port named wins',
      web,
      {
        matched: ['prod web', 'everything'],
        nodes: ['node-prod', 'node-all'],
        platform: 'Linux',
        labels: ['env:prod'],
        protocols: [{ name: 'ssh', port: 2222 }],
        accounts: ['tmpl-root'],
      },
    ],
    [
      'a Windows dev host: the higher priority platform wins over the catch-all',
      win,
      {
        matched: ['windows', 'either', 'everything'],
        nodes: ['node-win', 'node-all'],
        platform: 'Windows',
        labels: ['env:dev'],
        protocols: [
          { name: 'rdp', port: 3389 },
          { name: 'ssh', port: 22 },
        ],
        accounts: [],
      },
    ],
  ])('%s', (_n, inst, expected) => {
    expect(decide(inst, strategies)).toEqual(expected);
  });

  it('no strategy: nothing decided', () => {
    expect(decide(web, [])).toEqual({ nodes: [], labels: [], protocols: [], accounts: [], matched: [] });
  });
});
