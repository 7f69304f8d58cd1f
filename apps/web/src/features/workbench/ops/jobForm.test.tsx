import '../../../resource/testing/setup.ts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { resourceRoute } from '../../../resource/resourceRoute.tsx';
import { callsTo, on, resetHttp } from '../../../resource/testing/fakeHttp.ts';
import { renderRoutes } from '../../../resource/testing/renderRoutes.tsx';
import type { FieldMetaMap } from '../../../resource/types.ts';
import { jobPages } from './jobPages.tsx';
import { JOBS_URL } from './jobsApi.ts';
import { jobConfig } from './opsRoutes.tsx';

vi.mock('../../../lib/http.ts', async (orig) =>
  (await import('../../../resource/testing/fakeHttp.ts')).fakeHttpModule(await orig()),
);

const choice = (label: string, values: string[]) => ({
  type: 'choice',
  label,
  choices: values.map((v) => ({ value: v, label: v })),
});
const write: FieldMetaMap = {
  name: { type: 'string', label: 'Name', max_length: 128 },
  type: choice('Type', ['adhoc', 'playbook']),
  module: choice('Module', ['shell', 'win_shell', 'raw', 'python', 'mysql', 'postgresql', 'sqlserver']),
  args: { type: 'string', label: 'Args' },
  playbook: { type: 'related_field', label: 'Playbook' },
  chdir: { type: 'string', label: 'Chdir', max_length: 1024 },
  timeout: { type: 'integer', label: 'Timeout' },
  assets: { type: 'm2m_related_field', label: 'Assets' },
  runas: { type: 'string', label: 'Run as', max_length: 128 },
  runas_policy: choice('Run as policy', ['skip', 'privileged_first', 'privileged_only']),
  run_after_save: { type: 'boolean', label: 'Run after save' },
  is_periodic: { type: 'boolean', label: 'Periodic' },
  crontab: { type: 'string', label: 'Crontab', max_length: 128 },
  interval: { type: 'integer', label: 'Interval' },
  use_parameter_define: { type: 'boolean', label: 'Use parameter define' },
  parameters_define: { type: 'json', label: 'Parameters define' },
  comment: { type: 'string', label: 'Comment' },
};

const routes = [{ path: '/workbench/ops', children: [resourceRoute({ ...jobConfig, ...jobPages })] }] as RouteObject[];
const itemOf = (label: string) => screen.getByLabelText(label).closest('.ant-form-item') as HTMLElement;

beforeEach(() => {
  resetHttp();
  on('OPTIONS', JOBS_URL, { actions: { GET: write, POST: write } });
  on('GET', JOBS_URL, { count: 0, results: [] });
  on('POST', JOBS_URL, (req: { body: unknown }) => ({ id: 'j1', ...(req.body as object) }));
});

async function periodicForm() {
  const user = userEvent.setup({ delay: null });
  renderRoutes(routes, '/workbench/ops/job/create?type=adhoc');
  await screen.findByText('Schedule');
  await user.type(screen.getByLabelText('Name'), 'nightly');
  await user.type(screen.getByLabelText('Command'), 'uptime');
  await user.click(screen.getByLabelText('Periodic'));
  return user;
}

describe('the job form', () => {
  it('previews the next five runs of the crontab', async () => {
    await periodicForm();
    expect((screen.getByLabelText('Crontab') as HTMLInputElement).value).toBe('0 0 * * *');
    const preview = await screen.findByTestId('crontab-preview');
    expect(within(preview).getAllByRole('listitem')).toHaveLength(5);
  });

  it('refuses a crontab of six fields with a message that says so, and sends nothing', async () => {
    const user = await periodicForm();
    const cron = screen.getByLabelText('Crontab');
    await user.clear(cron);
    await user.type(cron, '0 0 * * * *');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(
      await within(itemOf('Crontab')).findByText(
        'A crontab has 5 fields (minute hour day month weekday); this one has 6.',
      ),
    ).toBeTruthy();
    expect(screen.queryByTestId('crontab-preview')).toBeNull();
    expect(callsTo('POST', JOBS_URL)).toHaveLength(0);
  });

  it('refuses an interval of 0 hours', async () => {
    const user = await periodicForm();
    await user.clear(screen.getByLabelText('Crontab'));
    await user.type(screen.getByLabelText('Interval'), '0');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(
      await within(itemOf('Interval')).findByText('The interval is a whole number of hours, at least 1.'),
    ).toBeTruthy();
    expect(callsTo('POST', JOBS_URL)).toHaveLength(0);
  });

  it('sends a valid periodic job with its crontab', async () => {
    const user = await periodicForm();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(callsTo('POST', JOBS_URL)).toHaveLength(1));
    expect(callsTo('POST', JOBS_URL)[0]!.body).toMatchObject({
      name: 'nightly',
      type: 'adhoc',
      module: 'shell',
      args: 'uptime',
      runas: 'root',
      runas_policy: 'skip',
      is_periodic: true,
      crontab: '0 0 * * *',
    });
    expect(callsTo('POST', JOBS_URL)[0]!.body).not.toHaveProperty('interval');
  });

  it("is prefilled from a saved command's module and command", async () => {
    renderRoutes(routes, '/workbench/ops/job/create?type=adhoc&module=raw&args=df+-h');
    await screen.findByText('Schedule');
    expect((screen.getByLabelText('Command') as HTMLTextAreaElement).value).toBe('df -h');
    expect(itemOf('Module').textContent).toContain('raw');
  });
});
