import './testing/setup.ts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { resourceRoute, type ResourcePagesConfig } from './resourceRoute.tsx';
import { callsTo, fail, on, resetHttp } from './testing/fakeHttp.ts';
import { alice, bob, USERS_URL, usersMeta } from './testing/fixtures.ts';
import { renderRoutes } from './testing/renderRoutes.tsx';

vi.mock('../lib/http.ts', async (orig) => (await import('./testing/fakeHttp.ts')).fakeHttpModule(await orig()));

/** The optional list additions: own create handler, extra batch actions, per-row refusals of a batch update. */
const pages = (list: ResourcePagesConfig['list']): ResourcePagesConfig => ({
  path: 'users',
  routeName: 'User',
  url: USERS_URL,
  titles: {
    list: 'users.route.UserList',
    create: 'users.route.UserCreate',
    update: 'users.route.UserUpdate',
    detail: 'users.route.UserDetail',
  },
  kind: 'users.kind.User',
  list: { name: 'ExtrasUsers', columnsExclude: ['comment'], ...list },
  form: { groups: [] },
  detail: { tabs: [] },
});
const open = (list: ResourcePagesConfig['list']) =>
  renderRoutes(
    [{ path: '/console/users', children: [resourceRoute(pages(list))] }] as RouteObject[],
    '/console/users/users/',
  );
const row = (name: string) => screen.getByRole('link', { name }).closest('tr')!;

beforeEach(() => {
  resetHttp();
  on('OPTIONS', USERS_URL, usersMeta);
  on('GET', USERS_URL, { count: 2, results: [alice, bob] });
});

async function selectBoth(user: ReturnType<typeof userEvent.setup>) {
  await screen.findByRole('link', { name: 'Alice Liddell' });
  await user.click(within(row('Alice Liddell')).getByRole('checkbox'));
  await user.click(within(row('Bob')).getByRole('checkbox'));
}

describe('list extras', () => {
  it('runs its own create handler and extra batch actions on the selected rows', async () => {
    const user = userEvent.setup({ delay: null });
    const onCreate = vi.fn();
    const onBatch = vi.fn();
    const onSelection = vi.fn();
    open({
      headerActions: { onCreate, batchExtra: [{ key: 'x', label: 'Do X', onClick: onBatch }] },
      onSelectionChange: onSelection,
    });
    await user.click(await screen.findByTestId('list-create'));
    expect(onCreate).toHaveBeenCalledOnce();
    await selectBoth(user);
    expect(onSelection).toHaveBeenLastCalledWith([
      expect.objectContaining({ id: alice.id }),
      expect.objectContaining({ id: bob.id }),
    ]);
    await user.click(screen.getByTestId('list-more'));
    await user.click(await screen.findByRole('menuitem', { name: 'Do X' }));
    expect(onBatch.mock.calls[0]![0].map((r: { id: string }) => r.id)).toEqual([alice.id, bob.id]);
  });

  it('shows extra header buttons beside Create, whose reload refreshes the list', async () => {
    const user = userEvent.setup({ delay: null });
    open({
      headerActions: {
        extra: [
          {
            key: 'invite',
            render: (reload) => (
              <button type="button" onClick={reload}>
                Invite
              </button>
            ),
          },
        ],
      },
    });
    await screen.findByRole('link', { name: 'Alice Liddell' });
    const before = callsTo('GET', USERS_URL).length;
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    await vi.waitFor(() => expect(callsTo('GET', USERS_URL).length).toBe(before + 1));
  });

  it('names each refused row and its reason when a batch update is refused', async () => {
    const user = userEvent.setup({ delay: null });
    on('PATCH', USERS_URL, () => fail(400, [{ comment: ['too long for alice'] }, { comment: ['too long for bob'] }]));
    open({ headerActions: { bulkUpdateFields: ['comment'] } });
    await selectBoth(user);
    await user.click(screen.getByTestId('list-more'));
    await user.click(await screen.findByRole('menuitem', { name: 'Update selected' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Comment' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Comment' }), 'x');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    const list = await within(dialog).findByTestId('bulk-row-errors');
    expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      'Alice Liddell: too long for alice',
      'Bob: too long for bob',
    ]);
    expect(callsTo('PATCH', USERS_URL)).toHaveLength(1);
  });

  it('reads a count at the server\'s cap as "at least" when the list declares one', async () => {
    on('GET', USERS_URL, { count: 10_000, results: [alice, bob] });
    open({ countCap: 10_000 });
    expect(await screen.findByText('Total 10,000+')).toBeTruthy();
  });

  it('shows an exact count under the cap', async () => {
    on('GET', USERS_URL, { count: 9_999, results: [alice, bob] });
    open({ countCap: 10_000 });
    expect(await screen.findByText('Total 9999')).toBeTruthy();
  });

  it('shows the count as is on a list without a cap', async () => {
    on('GET', USERS_URL, { count: 10_000, results: [alice, bob] });
    open({});
    expect(await screen.findByText('Total 10000')).toBeTruthy();
  });
});
