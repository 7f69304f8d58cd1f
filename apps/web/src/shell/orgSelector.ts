import { hasPermission } from '@gatehouse/contract';

/**
 * The organisation selector of the console: shown only with a valid licence and when the
 * route does not hide it; read-only where the route forbids changing the org; in the console view
 * it also offers "create organisation" and "organisation list", each disabled without its
 * permission (or while its page is not built).
 */
export interface OrgSelectorInput {
  licenseValid: boolean;
  /** Resolved meta of the current route (inherited from its parents). */
  route: { showOrganization?: boolean; disableOrgsChange?: boolean } | undefined;
  view: string;
  perms: ReadonlySet<string> | readonly string[];
  hasRoute(path: string): boolean;
}

export interface OrgAction {
  id: 'create' | 'list';
  /** Translation key. */
  label: string;
  /** The named routes OrganizationCreate and OrganizationList. */
  to: string;
  disabled: boolean;
}

export interface OrgSelectorState {
  visible: boolean;
  readOnly: boolean;
  actions: OrgAction[];
}

/** The page reloads this long after an org switch. */
export const ORG_SWITCH_RELOAD_MS = 400;

export const ORGANIZATION_CREATE_PATH = '/settings/orgs/create';
export const ORGANIZATION_LIST_PATH = '/settings/orgs/';

export function orgSelectorState(input: OrgSelectorInput): OrgSelectorState {
  const visible = input.licenseValid && input.route?.showOrganization !== false;
  const readOnly = Boolean(input.route?.disableOrgsChange);
  const actions: OrgAction[] = [];
  if (visible && !readOnly && input.view === 'console') {
    actions.push(
      {
        id: 'create',
        label: 'shell.org.create',
        to: ORGANIZATION_CREATE_PATH,
        disabled: !hasPermission(input.perms, 'orgs.add_organization') || !input.hasRoute(ORGANIZATION_CREATE_PATH),
      },
      {
        id: 'list',
        label: 'shell.org.list',
        to: ORGANIZATION_LIST_PATH,
        disabled: !hasPermission(input.perms, 'orgs.view_organization') || !input.hasRoute(ORGANIZATION_LIST_PATH),
      },
    );
  }
  return { visible, readOnly, actions };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const looksLikeId = (value: string) => UUID.test(value) || /^\d+$/.test(value);

/**
 * The address to reload after switching org: without id-like path segments and
 * without query values that look like an id or a number (the platform value stays); the root when
 * what is left is not a page. Dropping an id keeps the collection's trailing slash.
 */
export function orgSwitchTarget(pathname: string, search: string, hasRoute: (path: string) => boolean): string {
  const all = pathname.split('/').filter(Boolean);
  const segments = all.filter((s) => !looksLikeId(s));
  // A dropped id leaves the collection, whose page ends with a slash (`…/users/<id>` → `…/users/`).
  const trailing = pathname.endsWith('/') || segments.length < all.length ? '/' : '';
  const path = segments.length ? `/${segments.join('/')}${trailing}` : '/';
  const query = new URLSearchParams(search);
  for (const [key, value] of [...query.entries()]) {
    if (key !== 'platform' && looksLikeId(value)) query.delete(key, value);
  }
  if (!hasRoute(path)) return '/';
  const q = query.toString();
  return q ? `${path}?${q}` : path;
}
