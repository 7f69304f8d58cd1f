import './testing/setup.ts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { deleteCookie, getCookie, setCookie } from '../lib/cookies.ts';
import { DetailCard } from './DetailCard.tsx';
import { resourceRoute } from './resourceRoute.tsx';
import { callsTo, fail, on, resetHttp } from './testing/fakeHttp.ts';
import { alice, USERS_URL, userPages, usersMeta } from './testing/fixtures.ts';
import { renderRoutes, type RenderOptions } from './testing/renderRoutes.tsx';

vi.mock('../lib/http.ts', async (orig) => (await import('./testing/fakeHttp.ts')).fakeHttpModule(await orig()));

const pages = userPages({
  form: { groups: [] },
  detail: {
    tabs: [
      {
        name: 'UserInfo',
        title: 'users.tab.UserInfo',
        render: (u, { meta }) => (
          <DetailCard title="users.card.basic" object={u} meta={meta} fields={['username', 'source', 'groups']} />
        ),
      },
      { name: 'Second', title: 'users.tab.GroupUser', render: () => <p>second tab</p> },
    ],
  },
});
const routes = [{ path: '/console/users', children: [resourceRoute(pages)] }] as RouteObject[];
const open = (query = '', opts?: RenderOptions) =>
  renderRoutes(routes, `/console/users/users/${alice.id}${query}`, opts);
const activeTab = () => document.querySelector('.ant-tabs-tab-active')?.textContent;

beforeEach(() => {
  resetHttp();
  deleteCookie('activeTab');
  on('OPTIONS', USERS_URL, usersMeta);
  on('GET', `${USERS_URL}${alice.id}/`, alice);
  on('GET', '/api/v1/audits/activities/', [
    {
      id: 'a1',
      timestamp: '2024-03-06 10:00:00',
      content: 'admin updated user Alice',
      detail_url: '/api/v1/audits/operate-logs/o1/?type=action_detail',
      r_type: 'O',
    },
  ]);
  on('GET', '/api/v1/audits/operate-logs/o1/', { diff: [{ field: 'Name', before: 'Alice', after: 'Alice Liddell' }] });
});

describe('the detail page', () => {
  it('titles the object, shows its card from the GET metadata, and offers Update and Delete', async () => {
    open();
    expect((await screen.findByTestId('detail-title')).textContent).toBe('User: Alice Liddell');
    const card = screen.getByTestId('detail-card');
    expect(card.textContent).toContain('Username');
    expect(card.textContent).toContain('alice');
    expect(card.textContent).toContain('Local');
    expect(card.textContent).toContain('Ops, Dev');
    expect(screen.getByRole('button', { name: /Update/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Delete/ })).toBeTruthy();
  });

  it('cuts a long title at 80 characters', async () => {
    on('GET', `${USERS_URL}${alice.id}/`, { ...alice, name: 'x'.repeat(120) });
    open();
    const title = (await screen.findByTestId('detail-title')).textContent!;
    expect(title.length).toBe(80);
    expect(title.startsWith('User: xxx')).toBe(true);
  });

  it('hides Update in the root organisation', async () => {
    open('', { orgId: ROOT_ORG_ID });
    await screen.findByTestId('detail-title');
    expect(screen.queryByRole('button', { name: /Update/ })).toBeNull();
    expect(screen.getByRole('button', { name: /Delete/ })).toBeTruthy();
  });

  it('says the resource is lost or deleted on 404', async () => {
    on('GET', `${USERS_URL}${alice.id}/`, () => fail(404, { detail: 'Not found.', code: 'object_does_not_exist' }));
    open();
    expect(await screen.findByText('Resource lost or deleted')).toBeTruthy();
  });

  it('opens the tab of the activeTab query first, then of the cookie, then the first one', async () => {
    setCookie('activeTab', 'Second');
    const first = open('?activeTab=Activity');
    await screen.findByTestId('activity-timeline');
    expect(activeTab()).toBe('Activity');
    first.unmount();
    open();
    await screen.findByText('second tab');
    expect(activeTab()).toBe('Members');
    deleteCookie('activeTab');
  });

  it('keeps a clicked tab in the cookie and clears the query', async () => {
    const user = userEvent.setup({ delay: null });
    const { router } = open('?activeTab=Activity');
    await screen.findByTestId('activity-timeline');
    await user.click(screen.getByRole('tab', { name: 'Members' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(getCookie('activeTab')).toBe('Second');
  });

  it('shows the last 30 days of activity, and the diff of an operation', async () => {
    const user = userEvent.setup({ delay: null });
    open('?activeTab=Activity');
    expect((await screen.findByTestId('activity-timeline')).textContent).toContain('Activity in the last 30 days');
    expect(callsTo('GET', '/api/v1/audits/activities/')[0]!.query.get('resource_id')).toBe(alice.id);
    await user.click(await screen.findByText('admin updated user Alice'));
    const diff = await screen.findByTestId('diff-table');
    expect(diff.textContent).toContain('Name');
    expect(diff.textContent).toContain('Alice Liddell');
  });

  it('has no Activity tab without audits.view_activitylog', async () => {
    open('', { perms: ['users.view_user'] });
    await screen.findByTestId('detail-title');
    expect(screen.queryByRole('tab', { name: 'Activity' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Delete/ })).toBeNull();
  });
});
