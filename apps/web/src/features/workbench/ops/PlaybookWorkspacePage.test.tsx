import '../../../resource/testing/setup.ts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { callsTo, on, resetHttp } from '../../../resource/testing/fakeHttp.ts';
import { renderRoutes } from '../../../resource/testing/renderRoutes.tsx';
import { PlaybookWorkspacePage } from './PlaybookWorkspacePage.tsx';

vi.mock('../../../lib/http.ts', async (orig) =>
  (await import('../../../resource/testing/fakeHttp.ts')).fakeHttpModule(await orig()),
);

const FILES = '/api/v1/ops/playbook/p1/file/';
const routes = [{ path: '/workbench/ops/playbook/:id/workspace', element: <PlaybookWorkspacePage /> }] as RouteObject[];
const tree = [
  { id: 'root', name: 'deploy', pId: '', isParent: true },
  { id: 'main.yml', name: 'main.yml', pId: 'root', isParent: false },
  { id: 'roles', name: 'roles', pId: 'root', isParent: true },
  { id: 'roles/web.yml', name: 'web.yml', pId: 'roles', isParent: false },
];

beforeEach(() => {
  resetHttp();
  on('GET', '/api/v1/ops/playbooks/p1/', { id: 'p1', name: 'deploy' });
  on('GET', FILES, (req: { query: URLSearchParams }) => {
    const key = req.query.get('key');
    return key ? { content: `# ${key}\n` } : tree;
  });
  on('PATCH', FILES, { msg: 'ok' });
  on('POST', FILES, { id: 'roles/new.yml(1)', name: 'new.yml(1)', pId: 'roles', isParent: false });
});

const editor = () => screen.getByTestId('ws-editor') as HTMLTextAreaElement;

describe('the playbook workspace', () => {
  it('opens main.yml first and saves what is typed with PATCH {key, content}', async () => {
    const user = userEvent.setup({ delay: null });
    renderRoutes(routes, '/workbench/ops/playbook/p1/workspace');
    await waitFor(() => expect(editor().value).toBe('# main.yml\n'));
    expect(screen.getByTestId('ws-open-file').textContent).toBe('main.yml');
    await user.type(editor(), '- hosts: all');
    expect(screen.getByTestId('ws-open-file').textContent).toBe('main.yml *');
    await user.click(screen.getByTestId('ws-save'));
    await waitFor(() => expect(callsTo('PATCH', FILES)).toHaveLength(1));
    expect(callsTo('PATCH', FILES)[0]!.body).toEqual({
      key: 'main.yml',
      content: '# main.yml\n- hosts: all',
      is_directory: false,
    });
    await waitFor(() => expect(screen.getByTestId('ws-open-file').textContent).toBe('main.yml'));
  });

  it('makes a new file in the selected folder and opens it where the server put it', async () => {
    const user = userEvent.setup({ delay: null });
    renderRoutes(routes, '/workbench/ops/playbook/p1/workspace');
    await waitFor(() => expect(editor().value).toBe('# main.yml\n'));
    await user.click(screen.getByText('roles'));
    await user.click(screen.getByTestId('ws-new-file'));
    await user.type(screen.getByLabelText('Name'), 'new.yml');
    await user.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(callsTo('POST', FILES)).toHaveLength(1));
    expect(callsTo('POST', FILES)[0]!.body).toEqual({
      key: 'roles',
      name: 'new.yml',
      is_directory: false,
      content: '',
    });
    await waitFor(() => expect(screen.getByTestId('ws-open-file').textContent).toBe('roles/new.yml(1)'));
  });

  it('renames the selected file with PATCH {key, new_name}', async () => {
    const user = userEvent.setup({ delay: null });
    renderRoutes(routes, '/workbench/ops/playbook/p1/workspace');
    await screen.findByText('web.yml');
    await user.click(screen.getByText('web.yml'));
    await waitFor(() => expect(screen.getByTestId('ws-open-file').textContent).toBe('roles/web.yml'));
    await user.click(screen.getByTestId('ws-rename'));
    const name = screen.getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'site.yml');
    await user.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(callsTo('PATCH', FILES)).toHaveLength(1));
    expect(callsTo('PATCH', FILES)[0]!.body).toEqual({
      key: 'roles/web.yml',
      new_name: 'site.yml',
      is_directory: false,
    });
    await waitFor(() => expect(screen.getByTestId('ws-open-file').textContent).toBe('roles/site.yml'));
  });

  it('asks before unsaved changes are dropped for another file', async () => {
    const user = userEvent.setup({ delay: null });
    renderRoutes(routes, '/workbench/ops/playbook/p1/workspace');
    await waitFor(() => expect(editor().value).toBe('# main.yml\n'));
    await user.type(editor(), 'x');
    await user.click(screen.getByText('web.yml'));
    // antd's confirm carries its title twice (the dialog's accessible title and the confirm's own).
    expect(
      await screen.findAllByText('main.yml has unsaved changes. Open another file and lose them?'),
    ).not.toHaveLength(0);
    expect(screen.getByTestId('ws-open-file').textContent).toBe('main.yml *');
    await user.click(screen.getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(screen.getByTestId('ws-open-file').textContent).toBe('roles/web.yml'));
    expect(callsTo('PATCH', FILES)).toHaveLength(0);
  });
});
