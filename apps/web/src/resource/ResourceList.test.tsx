import './testing/setup.ts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { resourceRoute, type ResourcePagesConfig } from './resourceRoute.tsx';
import { callsTo, fail, on, resetHttp } from './testing/fakeHttp.ts';
import { alice, bob, USERS_URL, usersMeta } from './testing/fixtures.ts';
import { renderRoutes, type RenderOptions } from './testing/renderRoutes.tsx';

vi.mock('../lib/http.ts', async (orig) => (await import('./testing/fakeHttp.ts')).fakeHttpModule(await orig()));

const pages = (list: ResourcePagesConfig['list'] = {}): ResourcePagesConfig => ({
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
  list: { name: 'TestUsers', columnsExclude: ['comment'], ...list },
  form: { groups: [] },
  detail: { tabs: [] },
});
const open = (at = '/console/users/users/', opts?: RenderOptions, list?: ResourcePagesConfig['list']) =>
  renderRoutes([{ path: '/console/users', children: [resourceRoute(pages(list))] }] as RouteObject[], at, opts);

const headers = () =>
  screen
    .getAllByRole('columnheader')
    .map((th) => th.textContent?.trim())
    .filter(Boolean);
const row = (name: string) => screen.getByRole('link', { name }).closest('tr')!;

beforeEach(() => {
  resetHttp();
  on('OPTIONS', USERS_URL, usersMeta);
  on('GET', USERS_URL, (req: { query: URLSearchParams }) => {
    const search = req.query.get('search');
    const rows = [alice, bob].filter(
      (u) => !search || search.split(',').some((s) => u.username!.toString().includes(s)),
    );
    return { count: rows.length, results: rows };
  });
});

describe('the list table', () => {
  it('shows a column per readable field of the metadata, formatted for its type, actions last', async () => {
    open();
    await screen.findByRole('link', { name: 'Alice Liddell' });
    expect(callsTo('OPTIONS', USERS_URL)[0]!.url).toBe(`${USERS_URL}?draw=1&display=1`);
    expect(headers()).toEqual([
      'ID',
      'Name',
      'Username',
      'Email',
      'Source',
      'Groups',
      'Active',
      'Date joined',
      'Actions',
    ]);
    const cells = within(row('Alice Liddell'));
    expect(cells.getByText('Local')).toBeTruthy();
    expect(cells.getByText('Ops, Dev')).toBeTruthy();
    expect(cells.getByLabelText('Yes')).toBeTruthy();
    expect(cells.getByText(/2024/)).toBeTruthy();
    expect(within(row('Bob')).getByLabelText('No')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Alice Liddell' }).getAttribute('href')).toBe(
      `/console/users/users/${alice.id}`,
    );
    const list = callsTo('GET', USERS_URL)[0]!.query;
    expect(Object.fromEntries(list)).toEqual({ display: '1', draw: '1', offset: '0', limit: '15' });
  });

  it('keeps the columns a person chose for this table, locks actions and id, and restores the default', async () => {
    const user = userEvent.setup({ delay: null });
    const first = open();
    await screen.findByRole('link', { name: 'Alice Liddell' });
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('checkbox', { name: 'Actions' }).hasAttribute('disabled')).toBe(true);
    expect(within(dialog).getByRole('checkbox', { name: 'ID' }).hasAttribute('disabled')).toBe(true);
    await user.click(within(dialog).getByRole('checkbox', { name: 'Email' }));
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(headers()).not.toContain('Email'));
    expect(JSON.parse(localStorage.getItem('tableConfig')!).TestUsers.showColumns).toEqual([
      'id',
      'name',
      'username',
      'source',
      'groups',
      'is_active',
      'date_joined',
      'actions',
    ]);

    first.unmount();
    open();
    await screen.findByRole('link', { name: 'Alice Liddell' });
    expect(headers()).not.toContain('Email');

    await user.click(screen.getByRole('button', { name: 'Columns' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Restore default' }));
    await waitFor(() => expect(headers()).toContain('Email'));
    expect(JSON.parse(localStorage.getItem('tableConfig')!).TestUsers).toBeUndefined();
  });

  it('remembers the page size for every table', async () => {
    const user = userEvent.setup({ delay: null });
    open();
    await screen.findByRole('link', { name: 'Alice Liddell' });
    await user.click(screen.getByText('15 / page'));
    await user.click(await screen.findByText('50 / page'));
    await waitFor(() => expect(callsTo('GET', USERS_URL).at(-1)!.query.get('limit')).toBe('50'));
    expect(JSON.parse(localStorage.getItem('tableConfig')!).paginationSize).toBe(50);
  });

  it('orders by a sortable column and keeps the order in the address', async () => {
    const user = userEvent.setup({ delay: null });
    const { router } = open();
    await screen.findByRole('link', { name: 'Alice Liddell' });
    await user.click(screen.getByRole('columnheader', { name: /Username/ }));
    await waitFor(() => expect(callsTo('GET', USERS_URL).at(-1)!.query.get('order')).toBe('username'));
    // While the rows load, the table is blurred and takes no clicks (pointer-events: none).
    await waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull());
    await user.click(screen.getByRole('columnheader', { name: /Username/ }));
    await waitFor(() => expect(callsTo('GET', USERS_URL).at(-1)!.query.get('order')).toBe('-username'));
    expect(new URLSearchParams(router.state.location.search).get('order')).toBe('-username');
  });
});

describe('the date range', () => {
  it('asks for the last 7 days, from 00:00:01 to 23:59:59 today, where the list has one', async () => {
    open(undefined, undefined, { hasDatePicker: true });
    await screen.findByRole('link', { name: 'Alice Liddell' });
    const q = callsTo('GET', USERS_URL).at(-1)!.query;
    const from = new Date(q.get('date_from')!);
    const to = new Date(q.get('date_to')!);
    expect([from.getHours(), from.getMinutes(), from.getSeconds()]).toEqual([0, 0, 1]);
    expect([to.getHours(), to.getMinutes(), to.getSeconds()]).toEqual([23, 59, 59]);
    expect(Math.round((to.getTime() - from.getTime()) / 86_400_000)).toBe(8);
    expect(to.toDateString()).toBe(new Date().toDateString());
  });
});

describe('search tags', () => {
  it('restores tags from the address and sends them as search and field filters', async () => {
    open('/console/users/users/?search=ali&source=local');
    await screen.findByRole('link', { name: 'Alice Liddell' });
    const box = within(screen.getByTestId('search-tags'));
    expect(box.getByText('ali')).toBeTruthy();
    expect(box.getByText('Source: Local')).toBeTruthy();
    const q = callsTo('GET', USERS_URL).at(-1)!.query;
    expect(q.get('search')).toBe('ali');
    expect(q.get('source')).toBe('local');
  });

  it('adds trimmed free-text tags joined with commas, ignores empty and repeated ones, and mirrors them into the address', async () => {
    const user = userEvent.setup({ delay: null });
    const { router } = open('/console/users/users/?order=-date_updated');
    await screen.findByRole('link', { name: 'Alice Liddell' });
    const input = screen.getByTestId('search-input');
    await user.type(input, '  ali {Enter}');
    await user.type(input, 'bob{Enter}');
    await waitFor(() => expect(callsTo('GET', USERS_URL).at(-1)!.query.get('search')).toBe('ali,bob'));
    expect(new URLSearchParams(router.state.location.search).get('search')).toBe('ali,bob');
    expect(new URLSearchParams(router.state.location.search).get('order')).toBe('-date_updated');
    const count = callsTo('GET', USERS_URL).length;
    await user.type(input, '   {Enter}');
    await user.type(input, 'bob{Enter}');
    expect(within(screen.getByTestId('search-tags')).getAllByText(/^(ali|bob)$/)).toHaveLength(2);
    expect(callsTo('GET', USERS_URL)).toHaveLength(count);
    expect(callsTo('GET', USERS_URL).at(-1)!.query.get('order')).toBe('-date_updated');
  });

  it('filters by a field chosen in the cascader and drops the filter when its tag is closed', async () => {
    const user = userEvent.setup({ delay: null });
    const { router } = open();
    await screen.findByRole('link', { name: 'Alice Liddell' });
    await user.click(screen.getByTestId('search-field-picker'));
    await waitFor(() => expect(document.querySelector('.ant-cascader-menu-item[title="Username"]')).toBeTruthy());
    await user.click(document.querySelector('.ant-cascader-menu-item[title="Username"]')!);
    await user.type(screen.getByTestId('search-input'), 'alice{Enter}');
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('username')).toBe('alice'));
    expect(callsTo('GET', USERS_URL).at(-1)!.query.get('username')).toBe('alice');
    const tag = within(screen.getByTestId('search-tags')).getByText('Username: alice');
    await user.click(within(tag.closest('.ant-tag') as HTMLElement).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(callsTo('GET', USERS_URL).at(-1)!.query.has('username')).toBe(false);
  });
});

describe('actions', () => {
  it('asks before deleting a row by name and shows the server reason when it fails', async () => {
    const user = userEvent.setup({ delay: null });
    on('DELETE', `${USERS_URL}${alice.id}/`, () =>
      fail(400, { detail: 'Is referenced by other objects and cannot be deleted', code: 'referenced_by_others' }),
    );
    open();
    await screen.findByRole('link', { name: 'Alice Liddell' });
    await user.click(within(row('Alice Liddell')).getByRole('button', { name: /More/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    expect(await screen.findByText('Are you sure to delete "Alice Liddell"?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Delete failed: Is referenced by other objects and cannot be deleted')).toBeTruthy();
  });

  it('deletes the selected rows of several pages through one spm', async () => {
    const user = userEvent.setup({ delay: null });
    on('POST', '/api/v1/common/resources/cache/', { spm: 'spm-1' });
    on('DELETE', USERS_URL, null);
    open();
    await screen.findByRole('link', { name: 'Alice Liddell' });
    await user.click(within(row('Alice Liddell')).getByRole('checkbox'));
    await user.click(within(row('Bob')).getByRole('checkbox'));
    await user.click(screen.getByTestId('list-more'));
    expect(await screen.findByText('Batch processing (2)')).toBeTruthy();
    await user.click(screen.getByRole('menuitem', { name: 'Delete selected' }));
    expect(await screen.findByText('Are you sure to delete the 2 selected rows?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Bulk delete success')).toBeTruthy();
    expect(callsTo('POST', '/api/v1/common/resources/cache/')[0]!.body).toEqual({ resources: [alice.id, bob.id] });
    expect(callsTo('DELETE', USERS_URL)[0]!.query.get('spm')).toBe('spm-1');
  });

  it('disables create, update and clone in the root organisation but keeps delete and export', async () => {
    const user = userEvent.setup({ delay: null });
    open(undefined, { orgId: ROOT_ORG_ID });
    await screen.findByRole('link', { name: 'Alice Liddell' });
    expect(screen.getByTestId('list-create').hasAttribute('disabled')).toBe(true);
    expect(within(row('Alice Liddell')).getByRole('button', { name: 'Update' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('list-export').hasAttribute('disabled')).toBe(false);
    await user.click(within(row('Alice Liddell')).getByRole('button', { name: /More/ }));
    expect((await screen.findByRole('menuitem', { name: 'Delete' })).getAttribute('aria-disabled')).not.toBe('true');
    expect(screen.getByRole('menuitem', { name: 'Clone' }).getAttribute('aria-disabled')).toBe('true');
  });

  it('updates the checked fields of every selected row with one PATCH', async () => {
    const user = userEvent.setup({ delay: null });
    on('PATCH', USERS_URL, []);
    open(undefined, undefined, { headerActions: { bulkUpdateFields: ['comment', 'is_active'] } });
    await screen.findByRole('link', { name: 'Alice Liddell' });
    await user.click(within(row('Alice Liddell')).getByRole('checkbox'));
    await user.click(within(row('Bob')).getByRole('checkbox'));
    await user.click(screen.getByTestId('list-more'));
    await user.click(await screen.findByRole('menuitem', { name: 'Update selected' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByRole('textbox', { name: 'Comment' })).toBeNull();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Comment' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Comment' }), 'on leave');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Bulk update success')).toBeTruthy();
    expect(callsTo('PATCH', USERS_URL)[0]!.body).toEqual([
      { id: alice.id, comment: 'on leave' },
      { id: bob.id, comment: 'on leave' },
    ]);
  });

  it('leaves out the actions whose permission is missing', async () => {
    open(undefined, { perms: ['users.view_user'] });
    await screen.findByRole('link', { name: 'Alice Liddell' });
    expect(screen.queryByTestId('list-create')).toBeNull();
    expect(screen.queryByTestId('list-import')).toBeNull();
    expect(screen.queryByTestId('list-more')).toBeNull();
    expect(within(row('Alice Liddell')).queryByRole('button')).toBeNull();
    expect(screen.getByTestId('list-export')).toBeTruthy();
  });
});
