import '../../../resource/testing/setup.ts';
import { useEffect } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { callsTo, fail, on, resetHttp } from '../../../resource/testing/fakeHttp.ts';
import { renderRoutes } from '../../../resource/testing/renderRoutes.tsx';
import { EXECUTIONS_URL, JOBS_URL, OPS } from './jobsApi.ts';
import { QuickJobPage } from './QuickJobPage.tsx';

vi.mock('../../../lib/http.ts', async (orig) =>
  (await import('../../../resource/testing/fakeHttp.ts')).fakeHttpModule(await orig()),
);
// xterm.js needs a canvas: the terminal stands in as a box whose log ends at once.
vi.mock('../../ops/TaskLogTerminal.tsx', () => ({
  TaskLogTerminal: ({ task, onEnd }: { task: string; onEnd(): void }) => {
    useEffect(() => onEnd(), [onEnd]);
    return <div data-testid="fake-terminal">{task}</div>;
  },
}));

const TREE = '/api/v1/perms/users/self/nodes/children-with-assets/tree/';
const routes = [{ path: '/workbench/ops/quick-job', element: <QuickJobPage /> }] as RouteObject[];

beforeEach(() => {
  resetHttp();
  on('GET', TREE, [
    { id: '1', name: 'Default (1)', pId: '', isParent: true, meta: { type: 'node', data: { id: 'node-1' } } },
    { id: 'a1', name: 'web1', pId: '1', meta: { type: 'asset', data: { address: '10.0.0.1' } } },
  ]);
  on('POST', `${OPS}/username-hints/`, [{ username: 'deploy', total: 3 }]);
  on('POST', JOBS_URL, { id: 'job-1', task_id: 't1' });
  on('GET', `${OPS}/job-execution/task-detail/t1/`, {
    status: 'success',
    is_finished: true,
    is_success: true,
    time_cost: 1.25,
    job_id: 'job-1',
  });
  on('GET', `${OPS}/job-execution/asset-detail/`, {
    summary: { ok: ['web1'] },
    detail: [{ name: 'web1', status: 'ok', tasks: [{ name: 'shell', output: ' 10:00 up 3 days' }] }],
  });
  on('GET', `${EXECUTIONS_URL}t1/`, { id: 't1', summary: { ok: ['web1'] } });
});

const checkboxOf = (text: string) =>
  screen.getByText(text).closest('.ant-tree-treenode')!.querySelector('.ant-tree-checkbox') as HTMLElement;

describe('the quick job', () => {
  it('says what is missing instead of running', async () => {
    const user = userEvent.setup({ delay: null });
    renderRoutes(routes, '/workbench/ops/quick-job');
    await screen.findByText('web1');
    await user.click(screen.getByTestId('quick-run'));
    const problems = await screen.findByTestId('quick-problems');
    expect(problems.textContent).toContain('Select at least one asset or node in the tree.');
    expect(problems.textContent).toContain('Type a command.');
    expect(callsTo('POST', JOBS_URL)).toHaveLength(0);
  });

  it('runs an instant job on the checked assets, puts its task in the address and shows each host', async () => {
    const user = userEvent.setup({ delay: null });
    const { router } = renderRoutes(routes, '/workbench/ops/quick-job');
    await screen.findByText('web1');
    await user.click(checkboxOf('web1'));
    expect(screen.getByTestId('quick-target-count').textContent).toBe('Assets selected: 1 · nodes selected: 0');
    await user.type(screen.getByTestId('quick-command'), 'uptime');
    await user.click(screen.getByTestId('quick-run'));
    await waitFor(() => expect(router.state.location.search).toBe('?taskId=t1'));
    expect(callsTo('POST', JOBS_URL)[0]!.body).toEqual({
      type: 'adhoc',
      module: 'shell',
      args: 'uptime',
      runas: 'root',
      runas_policy: 'skip',
      timeout: 60,
      chdir: '',
      assets: ['a1'],
      nodes: [],
      instant: true,
      is_periodic: false,
    });
    expect((await screen.findByTestId('fake-terminal')).textContent).toBe('t1');
    const hosts = await screen.findByTestId('host-results');
    await waitFor(() => expect(within(hosts).getByText('web1')).toBeTruthy());
    expect(within(hosts).getByTestId('host-status').textContent).toBe('Success');
    expect(screen.getByTestId('execution-status').textContent).toBe('Success');
    expect(screen.getByTestId('execution-time').textContent).toBe('Took 1.25 s');
  });

  it('targets a checked node by its id', async () => {
    const user = userEvent.setup({ delay: null });
    renderRoutes(routes, '/workbench/ops/quick-job');
    await screen.findByText('web1');
    await user.click(checkboxOf('Default (1)'));
    await user.type(screen.getByTestId('quick-command'), 'id');
    await user.click(screen.getByTestId('quick-run'));
    await waitFor(() => expect(callsTo('POST', JOBS_URL)).toHaveLength(1));
    expect(callsTo('POST', JOBS_URL)[0]!.body).toMatchObject({ nodes: ['node-1'], assets: [] });
  });

  it('restores a run from ?taskId= with its command and targets', async () => {
    on('GET', `${JOBS_URL}job-1/`, {
      id: 'job-1',
      name: 'job-x',
      module: { value: 'raw', label: 'Raw' },
      args: 'df -h',
      runas: 'deploy',
      runas_policy: 'skip',
      timeout: 30,
      assets: ['a1'],
      nodes: [],
    });
    renderRoutes(routes, '/workbench/ops/quick-job?taskId=t1');
    await waitFor(() => expect((screen.getByTestId('quick-command') as HTMLTextAreaElement).value).toBe('df -h'));
    expect(screen.getByTestId('quick-target-count').textContent).toBe('Assets selected: 1 · nodes selected: 0');
    expect(await screen.findByTestId('fake-terminal')).toBeTruthy();
  });

  it('says the centre is off when the server refuses with "Command execution disabled"', async () => {
    on('POST', JOBS_URL, () => fail(403, { detail: 'Command execution disabled' }));
    const user = userEvent.setup({ delay: null });
    renderRoutes(routes, '/workbench/ops/quick-job');
    await screen.findByText('web1');
    await user.click(checkboxOf('web1'));
    await user.type(screen.getByTestId('quick-command'), 'id');
    await user.click(screen.getByTestId('quick-run'));
    expect((await screen.findByTestId('centre-disabled')).textContent).toContain('The job centre is turned off');
  });
});
