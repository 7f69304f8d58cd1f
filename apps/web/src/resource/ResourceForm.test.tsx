import './testing/setup.ts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { resourceRoute } from './resourceRoute.tsx';
import { callsTo, fail, on, resetHttp } from './testing/fakeHttp.ts';
import { alice, USERS_URL, userPages, usersMeta } from './testing/fixtures.ts';
import { renderRoutes } from './testing/renderRoutes.tsx';

vi.mock('../lib/http.ts', async (orig) => (await import('./testing/fakeHttp.ts')).fakeHttpModule(await orig()));

const pages = userPages({
  form: {
    groups: [
      { title: 'users.group.Account', fields: ['name', 'username', 'email', 'groups'] },
      { title: 'users.group.Authentication', fields: ['password', 'source'] },
      { title: 'users.group.Other', fields: ['is_active', 'comment'] },
    ],
    fieldsMeta: { groups: { url: '/api/v1/users/groups/' } },
  },
  detail: { tabs: [] },
});
const routes = [{ path: '/console/users', children: [resourceRoute(pages)] }] as RouteObject[];
const open = (at: string) => renderRoutes(routes, at);
const field = (label: string) => screen.getByLabelText(label);
const itemOf = (label: string) => field(label).closest('.ant-form-item') as HTMLElement;

beforeEach(() => {
  resetHttp();
  on('OPTIONS', USERS_URL, usersMeta);
  on('GET', USERS_URL, { count: 0, results: [] });
  on('GET', '/api/v1/users/groups/', {
    count: 2,
    results: [
      { id: 'g1', name: 'Ops' },
      { id: 'g2', name: 'Dev' },
    ],
  });
  on('GET', `${USERS_URL}${alice.id}/`, alice);
});

async function fillNewUser() {
  const user = userEvent.setup({ delay: null });
  await screen.findByText('Account');
  await user.type(field('Name'), 'Carol');
  await user.type(field('Username'), 'carol');
  await user.type(field('Email'), 'carol@example.com');
  await user.type(field('Password'), 'S3cret-pass');
  return user;
}

describe('the resource form', () => {
  it('shows the field groups with a widget per metadata type, and no read-only field', async () => {
    open('/console/users/users/create');
    await screen.findByText('Account');
    expect(screen.getByText('Authentication')).toBeTruthy();
    expect(field('Password').getAttribute('type')).toBe('password');
    expect(field('Email').getAttribute('type')).toBe('email');
    expect(screen.getByRole('radio', { name: 'Local' })).toBeTruthy();
    expect(screen.getByRole('switch')).toBeTruthy();
    expect(field('Comment').tagName).toBe('TEXTAREA');
    expect(screen.queryByLabelText('ID')).toBeNull();
    expect(screen.getByRole('button', { name: 'Save and add another' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reset' })).toBeNull();
  });

  it('puts each 400 message on its field, joined with "; ", and the other messages above the form', async () => {
    on('POST', USERS_URL, () =>
      fail(400, {
        email: ['Enter a valid email address.', 'This email is already used.'],
        username: ['Exists'],
        non_field_errors: ['Please save in a org'],
        phone: { phone: ['Invalid phone'] },
      }),
    );
    open('/console/users/users/create');
    const user = await fillNewUser();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Enter a valid email address.; This email is already used.')).toBeTruthy();
    expect(itemOf('Email').textContent).toContain('Enter a valid email address.; This email is already used.');
    expect(itemOf('Username').textContent).toContain('Exists');
    const top = screen.getByTestId('form-errors');
    expect(top.textContent).toContain('Please save in a org');
    expect(top.textContent).toContain('phone: Invalid phone');
  });

  it('creates with POST from the shown fields and goes back to the list ordered by last update', async () => {
    on('POST', USERS_URL, (req: { body: unknown }) => ({ id: 'new-id', ...(req.body as object) }));
    const { router } = open('/console/users/users/create');
    const user = await fillNewUser();
    await user.click(screen.getByRole('radio', { name: 'LDAP' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect((await screen.findByTestId('form-success')).textContent).toBe('Carol created');
    expect(callsTo('POST', USERS_URL)[0]!.body).toEqual({
      name: 'Carol',
      username: 'carol',
      email: 'carol@example.com',
      password: 'S3cret-pass',
      source: 'ldap',
      groups: [],
    });
    await waitFor(() =>
      expect(router.state.location.pathname + router.state.location.search).toBe(
        '/console/users/users/?order=-date_updated',
      ),
    );
  });

  it('stays on the page and empties the form after "Save and add another"', async () => {
    on('POST', USERS_URL, { id: 'new-id', name: 'Carol' });
    const { router } = open('/console/users/users/create');
    const user = await fillNewUser();
    await user.click(screen.getByRole('button', { name: 'Save and add another' }));
    await screen.findByTestId('form-success');
    await new Promise((r) => setTimeout(r, 200));
    expect(router.state.location.pathname).toBe('/console/users/users/create');
    expect((field('Name') as HTMLInputElement).value).toBe('');
  });

  it('loads the object for update, sends PUT to its URL, and resets to the loaded values', async () => {
    on('PUT', `${USERS_URL}${alice.id}/`, (req: { body: unknown }) => ({ ...alice, ...(req.body as object) }));
    open(`/console/users/users/${alice.id}/update`);
    const user = userEvent.setup({ delay: null });
    await waitFor(() => expect((field('Name') as HTMLInputElement).value).toBe('Alice Liddell'));
    expect(screen.getByText('Ops')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save and add another' })).toBeNull();
    await user.clear(field('Name'));
    await user.type(field('Name'), 'Alice L.');
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect((field('Name') as HTMLInputElement).value).toBe('Alice Liddell');
    await user.type(field('Comment'), 'On call');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect((await screen.findByTestId('form-success')).textContent).toBe('Alice Liddell updated');
    const body = callsTo('PUT', `${USERS_URL}${alice.id}/`)[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({
      name: 'Alice Liddell',
      comment: 'On call',
      source: 'local',
      groups: ['g1', 'g2'],
      is_active: true,
    });
    expect(body).not.toHaveProperty('password');
  });

  it('clones an object with its name prefixed', async () => {
    open(`/console/users/users/create?clone_from=${alice.id}`);
    await waitFor(() => expect((field('Name') as HTMLInputElement).value).toBe('Clone from Alice Liddell'));
    expect((field('Username') as HTMLInputElement).value).toBe('alice');
  });

  it('says a required field is missing when it is left', async () => {
    const user = userEvent.setup({ delay: null });
    open('/console/users/users/create');
    await screen.findByText('Account');
    await user.click(field('Name'));
    await user.tab();
    expect(await screen.findByText('This field is required')).toBeTruthy();
  });

  it('disables a select whose options the server refuses with 403', async () => {
    on('GET', '/api/v1/users/groups/', () =>
      fail(403, { detail: 'You do not have permission to perform this action.' }),
    );
    open('/console/users/users/create');
    await screen.findByText('Account');
    await waitFor(() => expect(itemOf('Groups').querySelector('.ant-select-disabled')).toBeTruthy());
    expect(itemOf('Groups').textContent).toContain('No permission to list these options');
  });
});
