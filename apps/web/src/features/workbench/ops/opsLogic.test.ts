import { describe, expect, it } from 'vitest';
import { nest } from '../../../entries/terminal/assetTree.ts';
import type { TreeItem } from '../../../entries/terminal/lunaApi.ts';
import { executionError, executionStatus, hostRows } from './hostResults.ts';
import { fileTree, firstFile, parentDir } from './playbookFiles.ts';
import {
  checkedKeys,
  fromJob,
  instantJobBody,
  NO_TARGETS,
  QUICK_JOB_DEFAULTS,
  runProblems,
  toggle,
} from './quickJob.ts';
import { HttpError } from '../../../lib/http.ts';
import { isCentreDisabled } from './jobsApi.ts';
import { parameterFields } from './runJob.tsx';
import { variableHelp } from './VariablesHelp.tsx';
import { crontabProblem, intervalProblem, periodicProblem } from './schedule.ts';

const items: TreeItem[] = [
  { id: 'favorite', name: 'Favorites (1)', pId: '', isParent: true, meta: { type: 'node', data: { id: 'favorite' } } },
  { id: '1', name: 'Default (2)', pId: '', isParent: true, meta: { type: 'node', data: { id: 'uuid-1' } } },
  { id: 'h1', name: 'web1', pId: '1', meta: { type: 'asset', data: { address: '10.0.0.1' } } },
  { id: 'h1', name: 'web1', pId: 'favorite', meta: { type: 'asset' } },
];

describe('the quick job', () => {
  const tree = nest(items);
  const [fav, def] = tree;
  const web1 = def!.children![0]!;

  it('targets a node by its id (not its tree key) and an asset wherever it shows', () => {
    let t = toggle(NO_TARGETS, def!, true);
    expect(t.nodes).toEqual({ 'uuid-1': 'Default' });
    t = toggle(t, web1, true);
    expect(t.assets).toEqual({ h1: 'web1' });
    const favWeb1 = nest([items[3]!])[0]!;
    const withFav = [{ ...fav!, children: [favWeb1] }, def!];
    expect(checkedKeys(t, withFav)).toEqual(['favorite/h1', 'n:1', '1/h1']);
    expect(toggle(t, favWeb1, false).assets).toEqual({});
  });

  it('says what is missing before a run', () => {
    expect(runProblems({ ...QUICK_JOB_DEFAULTS, runas: ' ' }, NO_TARGETS)).toEqual([
      'jobs.quick.needTarget',
      'jobs.quick.needCommand',
      'jobs.quick.needRunas',
    ]);
    const t = toggle(NO_TARGETS, web1, true);
    expect(runProblems({ ...QUICK_JOB_DEFAULTS, args: 'uptime' }, t)).toEqual([]);
  });

  it('sends the values, the nodes and the assets as an ad-hoc job', () => {
    const t = toggle(toggle(NO_TARGETS, web1, true), def!, true);
    expect(instantJobBody({ ...QUICK_JOB_DEFAULTS, args: 'id', chdir: ' /tmp ', runas: 'root ' }, t)).toEqual({
      type: 'adhoc',
      module: 'shell',
      args: 'id',
      runas: 'root',
      runas_policy: 'skip',
      timeout: 60,
      chdir: '/tmp',
      assets: ['h1'],
      nodes: ['uuid-1'],
    });
  });

  it('restores a run from its job, choices and related objects included', () => {
    const r = fromJob({
      id: 'j',
      name: 'job-x',
      module: { value: 'raw', label: 'Raw' },
      runas_policy: 'privileged_only',
      args: 'ls',
      runas: 'admin',
      timeout: 10,
      chdir: '',
      assets: ['a1', { id: 'a2', name: 'db' }] as unknown as string[],
      nodes: [],
    });
    expect(r.values).toMatchObject({
      module: 'raw',
      runas_policy: 'privileged_only',
      args: 'ls',
      runas: 'admin',
      timeout: 10,
    });
    expect(r.targets).toEqual({ nodes: {}, assets: { a1: 'a1', a2: 'db' } });
  });
});

describe('execution results', () => {
  it("reads JumpServer's asset detail and a plain list alike", () => {
    const js = {
      summary: { ok: ['web1'], failures: { db: 'boom' } },
      detail: [
        { name: 'web1', status: 'ok', tasks: [{ name: 't', output: 'up 3 days' }] },
        {
          name: 'db',
          status: 'failed',
          tasks: [
            { name: 't', output: 'x' },
            { name: 'u', output: 'y' },
          ],
        },
      ],
    };
    expect(hostRows(js).map((r) => [r.name, r.status, r.output])).toEqual([
      ['web1', 'ok', 'up 3 days'],
      ['db', 'failed', 'x\ny'],
    ]);
    expect(
      hostRows([
        {
          asset: { id: 'a1', name: 'web1' },
          status: { value: 'skipped', label: 'Skipped' },
          reason: 'Ansible is not installed',
          time_cost: 0.5,
        },
      ]),
    ).toEqual([
      { key: 'a1', name: 'web1', status: 'skipped', reason: 'Ansible is not installed', output: '', timeCost: 0.5 },
    ]);
    expect(hostRows(null)).toEqual([]);
    expect(executionError({ summary: { error: 'No runner' } })).toBe('No runner');
    expect(executionError({ summary: {} })).toBe('');
  });

  it('takes the status given, else the flags', () => {
    expect(executionStatus({ status: 'pending', is_finished: false })).toBe('pending');
    expect(executionStatus({ status: { value: 'timeout', label: 'T' } })).toBe('timeout');
    expect(executionStatus({ is_finished: false })).toBe('running');
    expect(executionStatus({ is_finished: true, is_success: true })).toBe('success');
    expect(executionStatus({ is_finished: true, is_success: false })).toBe('failed');
  });
});

describe('schedules and parameters', () => {
  it('refuses a six-field crontab and a zero interval, and wants one of them on a periodic job', () => {
    expect(crontabProblem('0 0 * * * *')).toEqual({ key: 'jobs.schedule.cronFields', values: { count: 6 } });
    expect(crontabProblem('0 25 * * *')).toEqual({ key: 'jobs.schedule.cronBad.hour', values: { part: '25' } });
    expect(crontabProblem('')).toBeNull();
    expect(crontabProblem('*/5 * * * *')).toBeNull();
    expect(intervalProblem(0)).toEqual({ key: 'jobs.schedule.intervalMin' });
    expect(intervalProblem(1.5)).toEqual({ key: 'jobs.schedule.intervalMin' });
    expect(intervalProblem(null)).toBeNull();
    expect(intervalProblem(2)).toBeNull();
    expect(periodicProblem({ is_periodic: true, crontab: ' ', interval: null })).toEqual({
      key: 'jobs.schedule.needOne',
    });
    expect(periodicProblem({ is_periodic: true, interval: 3 })).toBeNull();
    expect(periodicProblem({ is_periodic: false })).toBeNull();
  });

  it('reads parameter definitions as JSON text, an object or a list', () => {
    expect(parameterFields('{"env": {"label": "Environment", "default": "prod"}}')).toEqual([
      { name: 'env', label: 'Environment', default: 'prod' },
    ]);
    expect(parameterFields([{ name: 'n', default: 3 }])).toEqual([{ name: 'n', label: 'n', default: '3' }]);
    expect(parameterFields({ x: 'y' })).toEqual([{ name: 'x', label: 'x', default: 'y' }]);
    expect(parameterFields('not json')).toEqual([]);
  });
});

describe('the playbook workspace', () => {
  const items = [
    { id: 'root', name: 'demo', pId: '', isParent: true },
    { id: 'roles', name: 'roles', pId: 'root', isParent: true },
    { id: 'roles/web.yml', name: 'web.yml', pId: 'roles', isParent: false },
    { id: 'hosts', name: 'hosts', pId: 'root', isParent: false },
    { id: 'main.yml', name: 'main.yml', pId: 'root', isParent: false },
  ];

  it('nests the files under the root, folders first, and opens main.yml first', () => {
    const tree = fileTree(items);
    expect(tree.map((n) => n.key)).toEqual(['roles', 'hosts', 'main.yml']);
    expect(tree[0]!.children!.map((n) => n.key)).toEqual(['roles/web.yml']);
    expect(firstFile(tree)).toBe('main.yml');
    expect(firstFile(fileTree(items.filter((i) => i.id !== 'main.yml')))).toBe('hosts');
  });

  it('creates in the selected folder, or beside the selected file', () => {
    const tree = fileTree(items);
    expect(parentDir(tree, 'roles')).toBe('roles');
    expect(parentDir(tree, 'roles/web.yml')).toBe('roles');
    expect(parentDir(tree, 'main.yml')).toBe('');
    expect(parentDir(tree, undefined)).toBe('');
  });
});

describe('the centre and its help', () => {
  it('knows the server refusing because the centre is off, in each of its languages', () => {
    const refused = (detail: string, status = 403) => new HttpError(status, { detail }, '/api/v1/ops/jobs/');
    expect(isCentreDisabled(refused('Command execution disabled'))).toBe(true);
    expect(isCentreDisabled(refused('命令执行已禁用'))).toBe(true);
    expect(isCentreDisabled(refused('コマンド実行は無効です'))).toBe(true);
    expect(isCentreDisabled(refused('You do not have permission to perform this action.'))).toBe(false);
    expect(isCentreDisabled(refused('Command execution disabled', 400))).toBe(false);
  });

  it("reads the server's variables help, a list or an object", () => {
    expect(
      variableHelp({ help: 'Use {{ name }}', variables: [{ name: 'jms_asset.name', label: 'Asset name' }] }),
    ).toEqual({
      help: 'Use {{ name }}',
      rows: [{ name: 'jms_asset.name', text: 'Asset name' }],
    });
    expect(variableHelp({ 'jms_asset.address': 'Address' }).rows).toEqual([
      { name: 'jms_asset.address', text: 'Address' },
    ]);
    expect(variableHelp(null)).toEqual({ help: '', rows: [] });
  });
});
