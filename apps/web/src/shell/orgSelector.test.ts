import { describe, expect, it } from 'vitest';
import { orgSwitchTarget } from './orgSelector.ts';

const id = '7f0c6ad3-53a4-4c43-9d0c-3f9d2c9a7e11';
const pages = new Set([
  '/console/users/users/',
  '/console/users/roles/',
  '/console/assets/assets/',
  '/settings/orgs/',
  '/console/dashboard',
]);
const hasRoute = (p: string) => pages.has(p);

/** The address rewrite after an org switch. */
describe('orgSwitchTarget', () => {
  it('drops an id segment and keeps the collection page with its trailing slash', () => {
    expect(orgSwitchTarget(`/console/users/users/${id}`, '', hasRoute)).toBe('/console/users/users/');
    expect(orgSwitchTarget(`/console/users/users/${id}/`, '', hasRoute)).toBe('/console/users/users/');
    expect(orgSwitchTarget('/console/users/roles/42', '?scope=org', hasRoute)).toBe('/console/users/roles/?scope=org');
  });

  it('leaves an address without ids as it is', () => {
    expect(orgSwitchTarget('/console/dashboard', '', hasRoute)).toBe('/console/dashboard');
    expect(orgSwitchTarget('/settings/orgs/', '?search=acme', hasRoute)).toBe('/settings/orgs/?search=acme');
  });

  it('drops query values that look like an id or a number, except platform', () => {
    expect(
      orgSwitchTarget('/console/assets/assets/', `?node=${id}&platform=12&offset=30&activeTab=Host`, hasRoute),
    ).toBe('/console/assets/assets/?platform=12&activeTab=Host');
    expect(orgSwitchTarget('/console/assets/assets/', `?platform=${id}`, hasRoute)).toBe(
      `/console/assets/assets/?platform=${id}`,
    );
  });

  it('goes to the root when what is left is not a page', () => {
    expect(orgSwitchTarget(`/console/users/users/${id}/update`, '', hasRoute)).toBe('/');
    expect(orgSwitchTarget(`/${id}`, '', hasRoute)).toBe('/');
    expect(orgSwitchTarget('/console/nowhere/', '', hasRoute)).toBe('/');
  });
});
