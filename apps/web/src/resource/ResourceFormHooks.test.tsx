import './testing/setup.ts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { resourceRoute } from './resourceRoute.tsx';
import { callsTo, on, resetHttp } from './testing/fakeHttp.ts';
import { alice, USERS_URL, userPages, usersMeta } from './testing/fixtures.ts';
import { renderRoutes } from './testing/renderRoutes.tsx';

vi.mock('../lib/http.ts', async (orig) => (await import('./testing/fakeHttp.ts')).fakeHttpModule(await orig()));

/** The optional form hooks: initial values on create, a custom input, loaded-value changes, where to go after a save. */
function TagsInput({ value = [], onChange }: { value?: string[]; onChange?(v: string[]): void }) {
  return (
    <div data-testid="custom-groups">
      {value.join('|')}
      <button type="button" onClick={() => onChange?.([...value, 'g9'])}>
        more
      </button>
    </div>
  );
}

const pages = userPages({
  form: {
    groups: [{ title: 'users.group.Account', fields: ['name', 'username', 'email', 'groups'] }],
    fieldsMeta: { groups: { render: () => <TagsInput /> } },
    initial: { groups: ['g1'] },
    afterGetFormValue: (values, object) => (object ? { ...values, name: `${String(values.name)}!` } : values),
    successRoute: (saved, ctx) => (ctx.isUpdate ? `/console/users/users/${saved.id}` : '/elsewhere'),
  },
  detail: { tabs: [] },
});
const routes = [
  { path: '/console/users', children: [resourceRoute(pages)] },
  { path: '/elsewhere', element: <div>elsewhere</div> },
] as RouteObject[];

beforeEach(() => {
  resetHttp();
  on('OPTIONS', USERS_URL, usersMeta);
  on('GET', `${USERS_URL}${alice.id}/`, alice);
  on('POST', USERS_URL, (req: { body: unknown }) => ({ id: 'new-id', ...(req.body as object) }));
  on('PUT', `${USERS_URL}${alice.id}/`, (req: { body: unknown }) => ({ ...alice, ...(req.body as object) }));
});

describe('resource form hooks', () => {
  it('keeps list initial values on create, renders the custom input, and follows successRoute', async () => {
    const { router } = renderRoutes(routes, '/console/users/users/create');
    const user = userEvent.setup({ delay: null });
    expect((await screen.findByTestId('custom-groups')).textContent).toContain('g1');
    await user.click(screen.getByRole('button', { name: 'more' }));
    await user.type(screen.getByLabelText('Name'), 'Carol');
    await user.type(screen.getByLabelText('Username'), 'carol');
    await user.type(screen.getByLabelText('Email'), 'carol@example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/elsewhere'));
    expect(callsTo('POST', USERS_URL)[0]!.body).toMatchObject({ name: 'Carol', groups: ['g1', 'g9'] });
  });

  it('adjusts loaded values with afterGetFormValue and goes where successRoute says after an update', async () => {
    const { router } = renderRoutes(routes, `/console/users/users/${alice.id}/update`);
    const user = userEvent.setup({ delay: null });
    await waitFor(() =>
      expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe(`${String(alice.name)}!`),
    );
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/console/users/users/${alice.id}`));
  });
});
