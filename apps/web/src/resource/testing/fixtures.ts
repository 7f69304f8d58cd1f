import type { FieldMetaMap, ResourceMeta, ResourceObject } from '../types.ts';
import type { ResourcePagesConfig } from '../resourceRoute.tsx';

/** A users resource as the contract describes it, for component tests. */
export const USERS_URL = '/api/v1/users/users/';

const get: FieldMetaMap = {
  id: { type: 'string', required: false, read_only: true, label: 'ID' },
  name: { type: 'string', required: true, label: 'Name', filter: true, order: true },
  username: { type: 'string', required: true, label: 'Username', filter: true, order: true },
  email: { type: 'email', required: true, label: 'Email', filter: true },
  password: { type: 'string', required: false, write_only: true, label: 'Password' },
  source: {
    type: 'labeled_choice',
    required: false,
    label: 'Source',
    filter: true,
    choices: [
      { value: 'local', label: 'Local' },
      { value: 'ldap', label: 'LDAP' },
    ],
  },
  groups: { type: 'm2m_related_field', required: false, label: 'Groups' },
  is_active: { type: 'boolean', required: false, label: 'Active', filter: true },
  date_joined: { type: 'datetime', required: false, read_only: true, label: 'Date joined' },
  comment: { type: 'string', required: false, label: 'Comment' },
};

const write: FieldMetaMap = Object.fromEntries(
  Object.entries(get).map(([k, { filter: _f, order: _o, ...m }]) => [k, m]),
);

export const usersMeta: ResourceMeta = { name: 'User', actions: { GET: get, POST: write, PUT: write } };

export const alice: ResourceObject = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Alice Liddell',
  username: 'alice',
  email: 'alice@example.com',
  source: { value: 'local', label: 'Local' },
  groups: [
    { id: 'g1', name: 'Ops' },
    { id: 'g2', name: 'Dev' },
  ],
  is_active: true,
  date_joined: '2024/03/05 14:03:11 +0000',
  comment: '',
};

export const bob: ResourceObject = {
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Bob',
  username: 'bob',
  email: 'bob@example.com',
  source: { value: 'ldap', label: 'LDAP' },
  groups: [],
  is_active: false,
  date_joined: '2024/03/06 09:00:00 +0000',
  comment: 'x',
};

/** The users pages declaration the component tests render, with the form and detail parts a test needs. */
export function userPages(parts: Pick<ResourcePagesConfig, 'form' | 'detail'>): ResourcePagesConfig {
  return {
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
    list: {},
    ...parts,
  };
}
