import './testing/setup.ts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { ImportDialog } from './ImportDialog.tsx';
import { callsTo, fail, on, resetHttp } from './testing/fakeHttp.ts';
import { USERS_URL } from './testing/fixtures.ts';
import { renderRoutes } from './testing/renderRoutes.tsx';

vi.mock('../lib/http.ts', async (orig) => (await import('./testing/fakeHttp.ts')).fakeHttpModule(await orig()));

const onClose = vi.fn();
const open = () =>
  renderRoutes(
    [
      { path: '/', element: <ImportDialog open url={USERS_URL} canCreate canUpdate selected={[]} onClose={onClose} /> },
    ] as RouteObject[],
    '/',
  );
const fileInput = () => document.querySelector('input[type="file"]') as HTMLInputElement;
const rowsWithStatus = (status: string) =>
  document.querySelectorAll(`[data-testid="import-review"] tr[data-status="${status}"]`);

const parsed = {
  title: [
    ['*Name', 'name'],
    ['*Username', 'username'],
    ['*Email', 'email'],
    ['Password', 'password'],
  ],
  data: [
    { name: 'A', username: 'a', email: 'a@example.com', password: 'Secret-1' },
    { name: 'B', username: 'b', email: 'not-an-email', password: '' },
    { name: 'C', username: 'c', email: 'c@example.com', password: '' },
  ],
};

beforeEach(() => {
  resetHttp();
  onClose.mockReset();
  on('POST', `${USERS_URL}render-to-json/`, parsed);
  on('POST', USERS_URL, (req: { body: Record<string, unknown> }) =>
    req.body.email === 'not-an-email'
      ? fail(400, { email: ['Enter a valid email address.'] })
      : { id: req.body.username, ...req.body },
  );
});

describe('the import dialog', () => {
  it('refuses a file over 30 MB before sending it', async () => {
    const user = userEvent.setup({ delay: null });
    open();
    const big = new File(['a,b\n'], 'users.csv', { type: 'text/csv' });
    Object.defineProperty(big, 'size', { value: 31 * 1024 * 1024 });
    await user.upload(fileInput(), big);
    expect(
      await screen.findByText('Only one csv or xlsx file of at most 30 MB can be imported', {
        selector: '.ant-form-item-explain-error',
      }),
    ).toBeTruthy();
    expect(callsTo('POST', `${USERS_URL}render-to-json/`)).toHaveLength(0);
  });

  it('parses the file on the server, masks secrets, and imports row by row; a bad row fails alone and can be retried', async () => {
    const user = userEvent.setup({ delay: null });
    open();
    const file = new File(['name,username\n'], 'users.csv', { type: 'text/csv' });
    await user.upload(fileInput(), file);
    const review = await screen.findByTestId('import-review');
    const parse = callsTo('POST', `${USERS_URL}render-to-json/`)[0]!;
    expect(parse.headers['Content-Type']).toBe('text/csv');
    expect(parse.body).toBe(file);
    expect(within(review).getByText('******')).toBeTruthy();
    expect(within(review).queryByText('Secret-1')).toBeNull();
    expect(rowsWithStatus('pending')).toHaveLength(3);

    await user.click(screen.getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(screen.getByTestId('import-button').textContent).toBe('Continue'), { timeout: 5000 });
    expect(callsTo('POST', USERS_URL).map((c) => (c.body as { username: string }).username)).toEqual(['a', 'b', 'c']);
    expect((callsTo('POST', USERS_URL)[0]!.body as { password: string }).password).toBe('Secret-1');
    expect(rowsWithStatus('ok')).toHaveLength(2);
    expect(rowsWithStatus('error')).toHaveLength(1);
    expect(screen.getByTestId('import-row-error').textContent).toContain('*Email: Enter a valid email address.');
    expect(screen.getByText(/Some rows failed to import/)).toBeTruthy();
    expect(screen.getByText('Failed (1)')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(callsTo('POST', USERS_URL)).toHaveLength(4));
    expect((callsTo('POST', USERS_URL)[3]!.body as { username: string }).username).toBe('b');
  });

  it('updates rows with PATCH to their own URL in update mode', async () => {
    const user = userEvent.setup({ delay: null });
    on('POST', `${USERS_URL}render-to-json/`, {
      title: [
        ['ID', 'id'],
        ['*Name', 'name'],
      ],
      data: [{ id: 'u1', name: 'A2' }],
    });
    on('PATCH', `${USERS_URL}u1/`, { id: 'u1', name: 'A2' });
    open();
    await user.click(screen.getByRole('radio', { name: 'Update' }));
    await user.upload(fileInput(), new File(['x'], 'users.xlsx'));
    await screen.findByTestId('import-review');
    expect(callsTo('POST', `${USERS_URL}render-to-json/`)[0]!.headers['Content-Type']).toBe('text/xlsx');
    await user.click(screen.getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(screen.getByTestId('import-button').textContent).toBe('Finished'));
    expect(callsTo('PATCH', `${USERS_URL}u1/`)[0]!.body).toEqual({ id: 'u1', name: 'A2' });
    await user.click(screen.getByRole('button', { name: 'Finished' }));
    expect(onClose).toHaveBeenCalled();
  });
});
