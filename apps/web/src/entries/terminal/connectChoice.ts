/**
 * What the connect dialog needs to decide, without React: the page's deep link, which account a
 * link or a single grant picks, what the dialog must ask for (@INPUT: username and password;
 * @USER without a stored namesake: the password) and the connection-token request.
 */
export interface PermedAccount {
  id: string;
  alias: string;
  name: string;
  username: string;
  has_secret: boolean;
  actions: { value: string; label?: string }[];
}

export interface ConnectMethod {
  value: string;
  label: string;
  type: 'web' | 'native';
}

export type DeepLink =
  { kind: 'none' } | { kind: 'login'; asset: string; account?: string } | { kind: 'token'; token: string };

export function deepLinkOf(search: string): DeepLink {
  const q = new URLSearchParams(search);
  const token = q.get('token')?.trim();
  if (token) return { kind: 'token', token };
  const asset = q.get('login_to')?.trim();
  if (asset) {
    const account = q.get('login_account')?.trim();
    return account ? { kind: 'login', asset, account } : { kind: 'login', asset };
  }
  return { kind: 'none' };
}

const canConnect = (a: PermedAccount) => a.actions.some((x) => x.value === 'connect');

/** The accounts the dialog offers: those permed with the connect action. */
export const connectable = (accounts: PermedAccount[]) => accounts.filter(canConnect);

/** The account a link names (by id or alias), else the only connectable one. */
export function preselected(accounts: PermedAccount[], wanted?: string): PermedAccount | undefined {
  const list = connectable(accounts);
  if (wanted) return list.find((a) => a.id === wanted || a.alias === wanted);
  return list.length === 1 ? list[0] : undefined;
}

export type Ask = { username: boolean; password: boolean };

/** What the user types before connecting with this account. */
export function askFor(a: PermedAccount): Ask {
  if (a.alias === '@INPUT') return { username: true, password: true };
  if (a.alias === '@USER') return { username: false, password: !a.has_secret };
  return { username: false, password: false };
}

/** Connecting needs nothing typed: a deep link with a stored account connects at once. */
export const connectsDirectly = (a: PermedAccount) => {
  const ask = askFor(a);
  return !ask.username && !ask.password;
};

/** Web methods only, those this page opens: a terminal (`web_cli`) or a desktop (`web_gui`). */
export const webMethods = (methods: ConnectMethod[]) =>
  methods.filter((m) => m.type === 'web' && (m.value === 'web_cli' || m.value === 'web_gui'));

/**
 * The protocols this page opens, in the order offered, among those an asset has (SSH when it lists
 * none of them): a terminal, a desktop, or a database's client behind the database proxy.
 */
const PAGE_PROTOCOLS = ['ssh', 'rdp', 'vnc', 'mysql', 'mariadb', 'postgresql'];
export function pageProtocols(assetProtocols: { name: string }[]): string[] {
  const names = new Set(assetProtocols.map((p) => p.name));
  const list = PAGE_PROTOCOLS.filter((p) => names.has(p));
  return list.length ? list : ['ssh'];
}

export interface TokenBody {
  asset: string;
  account: string;
  protocol: string;
  connect_method: string;
  input_username: string;
  input_secret: string;
}

export function tokenBody(
  assetId: string,
  a: PermedAccount,
  protocol: string,
  method: string,
  typed: { username?: string; password?: string },
): TokenBody {
  const ask = askFor(a);
  return {
    asset: assetId,
    account: a.alias.startsWith('@') ? a.alias : a.id,
    protocol,
    connect_method: method,
    input_username: ask.username ? (typed.username ?? '').trim() : '',
    input_secret: ask.password ? (typed.password ?? '') : '',
  };
}

/** The label of an account in the picker: virtual ones by their translated alias. */
export function accountLabel(a: PermedAccount, t: (k: string) => string): string {
  if (!a.alias.startsWith('@')) return `${a.name}(${a.username})`;
  const name = t(`perms.account.${a.alias.slice(1)}`);
  return a.alias === '@USER' ? `${name} (${a.username})` : name;
}
