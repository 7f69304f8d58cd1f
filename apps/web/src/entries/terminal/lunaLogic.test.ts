import { describe, expect, it } from 'vitest';
import {
  containerOf,
  FAVORITE_KEY,
  findNode,
  k8sNodes,
  loadedKeys,
  nest,
  searchResults,
  withChildren,
  withFavorites,
} from './assetTree.ts';
import {
  askFor,
  connectsDirectly,
  deepLinkOf,
  preselected,
  tokenBody,
  webMethods,
  type PermedAccount,
  pageProtocols,
} from './connectChoice.ts';
import type { TreeItem } from './lunaApi.ts';
import { parseServerMessage, refusalKey, serverMessage, socketUrl } from './socketMessages.ts';
import { outgoingKeys, prefsOf } from './terminalOptions.ts';

const account = (alias: string, extra: Partial<PermedAccount> = {}): PermedAccount => ({
  id: `id-${alias}`,
  alias,
  name: alias,
  username: alias.startsWith('@') ? alias : `${alias}-user`,
  has_secret: !alias.startsWith('@'),
  actions: [{ value: 'connect' }],
  ...extra,
});

describe('the web terminal socket protocol', () => {
  it('reads CONNECT with its clipboard flags, data, errors and the end reason', () => {
    const connect = parseServerMessage(
      JSON.stringify({
        type: 'CONNECT',
        id: 's1',
        data: {
          asset: { id: 'a', name: 'web01' },
          account: { id: 'c', name: 'root', username: 'root' },
          actions: ['connect', 'copy'],
          clipboard: { copy: true, paste: false },
        },
      }),
    );
    expect(connect).toEqual({
      type: 'CONNECT',
      info: {
        sessionId: 's1',
        asset: { id: 'a', name: 'web01' },
        account: { id: 'c', name: 'root', username: 'root' },
        actions: ['connect', 'copy'],
        clipboard: { copy: true, paste: false },
      },
    });
    // A missing or odd clipboard never turns copy on.
    const odd = parseServerMessage(JSON.stringify({ type: 'CONNECT', data: { clipboard: { copy: 'yes' } } }));
    expect(odd?.type === 'CONNECT' && odd.info.clipboard).toEqual({ copy: false, paste: false });
    expect(parseServerMessage('{"type":"TERMINAL_DATA","data":"ls\\r\\n"}')).toEqual({ type: 'DATA', data: 'ls\r\n' });
    expect(parseServerMessage('{"type":"TERMINAL_ERROR","err":"nope"}')).toEqual({ type: 'ERROR', err: 'nope' });
    expect(parseServerMessage('{"type":"CLOSE","reason":"idle"}')).toEqual({ type: 'CLOSE', reason: 'idle' });
    expect(parseServerMessage('{"type":"CLOSE","reason":"weird"}')).toEqual({ type: 'CLOSE', reason: 'closed' });
    // Who joined through a sharing; an unknown event is dropped, an odd permission reads as read-only.
    expect(
      parseServerMessage('{"type":"SHARE","data":{"event":"joined","user":"Bo(bo)","permission":"writable"}}'),
    ).toEqual({ type: 'SHARE', share: { event: 'joined', user: 'Bo(bo)', permission: 'writable' } });
    expect(parseServerMessage('{"type":"SHARE","data":{"event":"left","user":"Bo(bo)","permission":"root"}}')).toEqual({
      type: 'SHARE',
      share: { event: 'left', user: 'Bo(bo)', permission: 'readonly' },
    });
    expect(parseServerMessage('{"type":"SHARE","data":{"event":"boom"}}')).toBeUndefined();
    expect(parseServerMessage('not json')).toBeUndefined();
    expect(parseServerMessage('{"type":"PING"}')).toBeUndefined();
  });

  it('opens the socket on the page’s host, wss on https', () => {
    expect(socketUrl({ protocol: 'http:', host: '127.0.0.1:8080' }, 't1', 120, 40)).toBe(
      'ws://127.0.0.1:8080/koko/ws/terminal/?token=t1&cols=120&rows=40',
    );
    expect(socketUrl({ protocol: 'https:', host: 'gh.example' }, 't1', 80, 24)).toMatch(/^wss:\/\/gh\.example\//);
  });

  it('explains known refusal codes itself and shows the server’s text for the others', () => {
    expect(refusalKey({ code: 'acl_review', detail: 'x' })).toBe('luna.refusal.acl_review');
    expect(refusalKey({ code: 'perm_expired' })).toBe('luna.refusal.perm_expired');
    expect(refusalKey({ code: 'something_else' })).toBeUndefined();
    expect(serverMessage({ detail: 'Refused.' })).toBe('Refused.');
    expect(serverMessage({ input_username: ['Required.'], code: 'required' })).toBe('Required.');
  });
});

describe('the connect choice', () => {
  it('connects a database with its own protocol, a desktop by RDP or VNC, anything else with SSH', () => {
    const offered = (...names: string[]) => pageProtocols(names.map((name) => ({ name })));
    expect(offered('postgresql')).toEqual(['postgresql']);
    expect(offered('mysql')).toEqual(['mysql']);
    expect(offered('mariadb')).toEqual(['mariadb']);
    expect(offered('ssh', 'sftp')).toEqual(['ssh']);
    expect(offered('rdp', 'ssh')).toEqual(['ssh', 'rdp']);
    expect(offered('telnet')).toEqual(['ssh']);
  });

  it('reads deep links: a token wins, then login_to with its account', () => {
    expect(deepLinkOf('?token=t1&login_to=a')).toEqual({ kind: 'token', token: 't1' });
    expect(deepLinkOf('?login_to=a&login_account=%40INPUT')).toEqual({ kind: 'login', asset: 'a', account: '@INPUT' });
    expect(deepLinkOf('?login_to=a')).toEqual({ kind: 'login', asset: 'a' });
    expect(deepLinkOf('?_=123')).toEqual({ kind: 'none' });
  });

  it('preselects the named account (id or alias) or the only connectable one', () => {
    const root = account('root');
    const input = account('@INPUT');
    const viewOnly = account('deploy', { actions: [{ value: 'upload' }] });
    expect(preselected([root, input], 'id-root')).toBe(root);
    expect(preselected([root, input], '@INPUT')).toBe(input);
    expect(preselected([root, input])).toBeUndefined();
    expect(preselected([root, viewOnly])).toBe(root);
    expect(preselected([root], 'id-deploy')).toBeUndefined();
  });

  it('asks @INPUT for username and password, @USER for the password only without a stored secret', () => {
    expect(askFor(account('@INPUT'))).toEqual({ username: true, password: true });
    expect(askFor(account('@USER'))).toEqual({ username: false, password: true });
    expect(askFor(account('@USER', { has_secret: true }))).toEqual({ username: false, password: false });
    expect(connectsDirectly(account('root'))).toBe(true);
    expect(connectsDirectly(account('@INPUT'))).toBe(false);
  });

  it('sends a stored account by id and a virtual one by alias, typed fields only when asked', () => {
    expect(tokenBody('a1', account('root'), 'ssh', 'web_cli', { username: 'x', password: 'y' })).toEqual({
      asset: 'a1',
      account: 'id-root',
      protocol: 'ssh',
      connect_method: 'web_cli',
      input_username: '',
      input_secret: '',
    });
    expect(tokenBody('a1', account('@INPUT'), 'ssh', 'web_cli', { username: ' ops ', password: 'pw' })).toMatchObject({
      account: '@INPUT',
      input_username: 'ops',
      input_secret: 'pw',
    });
    expect(
      webMethods([
        { value: 'web_cli', label: 'Web CLI', type: 'web' },
        { value: 'web_sftp', label: 'Web SFTP', type: 'web' },
        { value: 'ssh_client', label: 'SSH', type: 'native' },
      ]).map((m) => m.value),
    ).toEqual(['web_cli']);
  });
});

describe('the granted tree', () => {
  const top: TreeItem[] = [
    { id: 'favorite', name: 'Favorites (1)', pId: '', isParent: true, meta: { type: 'node' } },
    { id: '1', name: 'Default (3)', pId: '', isParent: true, meta: { type: 'node' } },
    { id: '1:2', name: 'web (2)', pId: '1', isParent: true, meta: { type: 'node' } },
    { id: 'h1', name: 'host1', pId: '1', meta: { type: 'asset', data: { address: '10.0.0.1' } } },
  ];

  it('nests one answer by pId and keys an asset by its parent (one asset may be in several places)', () => {
    const tree = nest(top);
    expect(tree.map((n) => n.key)).toEqual(['n:favorite', 'n:1']);
    expect(tree[1]!.children!.map((n) => [n.key, n.kind])).toEqual([
      ['n:1:2', 'node'],
      ['1/h1', 'asset'],
    ]);
    expect(loadedKeys(tree)).toEqual(['n:1']);
    const fav = nest([{ id: 'h1', name: 'host1', pId: 'favorite', meta: { type: 'asset' } }]);
    const loaded = withChildren(tree, 'n:favorite', fav);
    expect(findNode(loaded, 'favorite/h1')?.ref).toBe('h1');
    expect(findNode(loaded, '1/h1')?.ref).toBe('h1');
    expect(withChildren(tree, 'n:1:2', []).at(1)!.children![0]!.isLeaf).toBe(true);
  });

  it('after a star changed, takes the Favourites count anew, and its assets when they were loaded', () => {
    const tree = nest(top);
    const fresh = nest([{ ...top[0]!, name: 'Favorites (2)' }]);
    const closed = withFavorites(tree, fresh, undefined);
    expect(closed[0]).toMatchObject({ title: 'Favorites (2)', isLeaf: false, children: undefined });
    expect(closed[1]).toBe(tree[1]);
    const opened = withChildren(tree, FAVORITE_KEY, []);
    const none = nest([{ ...top[0]!, name: 'Favorites (0)', isParent: false }]);
    expect(withFavorites(opened, none, [])[0]).toMatchObject({ title: 'Favorites (0)', isLeaf: true, children: [] });
    const two = nest([
      { id: 'h1', name: 'host1', pId: 'favorite', meta: { type: 'asset' } },
      { id: 'h2', name: 'host2', pId: 'favorite', meta: { type: 'asset' } },
    ]);
    expect(withFavorites(opened, fresh, two)[0]!.children!.map((n) => n.key)).toEqual(['favorite/h1', 'favorite/h2']);
  });

  it('lists search answers flat, assets only', () => {
    expect(searchResults(top).map((n) => [n.key, n.address])).toEqual([['search/h1', '10.0.0.1']]);
  });
});

describe('terminal preferences', () => {
  it('takes the saved luna preferences within bounds, defaults otherwise', () => {
    expect(
      prefsOf({
        command_line: {
          character_terminal_font_size: 18,
          terminal_theme_name: 'dracula',
          is_backspace_as_ctrl_h: true,
          is_right_click_quickly_paste: true,
        },
      }),
    ).toEqual({ fontSize: 18, theme: 'dracula', backspaceAsCtrlH: true, rightClickPaste: true });
    expect(prefsOf({ command_line: { character_terminal_font_size: 99, terminal_theme_name: 'nope' } })).toMatchObject({
      fontSize: 14,
      theme: 'default',
    });
    expect(prefsOf(null).fontSize).toBe(14);
  });

  it('sends Backspace as Ctrl+H only when preferred', () => {
    const p = prefsOf({});
    expect(outgoingKeys('ab\x7f', p)).toBe('ab\x7f');
    expect(outgoingKeys('ab\x7f', { ...p, backspaceAsCtrlH: true })).toBe('ab\x08');
  });
});

describe('the Kubernetes tree in luna', () => {
  const k8sAsset: TreeItem = {
    id: 'a1',
    name: 'cluster',
    pId: 'n1',
    meta: { type: 'asset', data: { platform_type: 'k8s', address: 'https://k8s:6443' } },
  };
  it('makes a k8s asset openable, its levels k8s nodes carrying the token, and containers leaves', () => {
    const [asset] = nest([k8sAsset]);
    expect(asset).toMatchObject({ kind: 'asset', platformType: 'k8s', isLeaf: false });
    expect(nest([{ ...k8sAsset, meta: { type: 'asset', data: { platform_type: 'linux' } } }])[0]!.isLeaf).toBe(true);
    const meta = (data: Record<string, string>) => ({ type: 'k8s', data });
    const [ns] = k8sNodes(
      [{ id: 'namespace=shop', name: 'shop', isParent: true, meta: meta({ namespace: 'shop' }) }],
      asset!.key,
      'tok',
      'a1',
    );
    expect(ns).toMatchObject({
      key: `${asset!.key}|namespace=shop`,
      kind: 'k8s',
      ref: 'namespace=shop',
      isLeaf: false,
    });
    expect(containerOf(ns!)).toBeUndefined();
    const [c] = k8sNodes(
      [
        {
          id: 'namespace=shop&pod=p&container=app',
          name: 'app',
          isParent: false,
          meta: meta({ namespace: 'shop', pod: 'p', container: 'app' }),
        },
      ],
      'x',
      'tok',
      'a1',
    );
    expect(c!.isLeaf).toBe(true);
    expect(c!.k8s).toEqual({ token: 'tok', assetId: 'a1', namespace: 'shop', pod: 'p', container: 'app' });
    expect(containerOf(c!)).toEqual({ namespace: 'shop', pod: 'p', container: 'app' });
  });

  it('asks the socket for the chosen container', () => {
    const url = socketUrl({ protocol: 'http:', host: 'h' }, 't1', 80, 24, {
      namespace: 'shop',
      pod: 'p',
      container: 'app',
    });
    expect(new URL(url).searchParams.toString()).toBe('token=t1&cols=80&rows=24&namespace=shop&pod=p&container=app');
  });
});

describe('graphical protocols', () => {
  it('offers the protocols the page opens among the asset’s, and both web methods', async () => {
    const { pageProtocols, webMethods } = await import('./connectChoice.ts');
    expect(pageProtocols([{ name: 'ssh' }, { name: 'vnc' }, { name: 'telnet' }])).toEqual(['ssh', 'vnc']);
    expect(pageProtocols([{ name: 'rdp' }])).toEqual(['rdp']);
    expect(pageProtocols([])).toEqual(['ssh']);
    const methods = webMethods([
      { value: 'web_cli', label: 'Web CLI', type: 'web' },
      { value: 'web_gui', label: 'Web GUI', type: 'web' },
      { value: 'web_sftp', label: 'SFTP', type: 'web' },
      { value: 'ssh_client', label: 'SSH', type: 'native' },
    ]);
    expect(methods.map((m) => m.value)).toEqual(['web_cli', 'web_gui']);
  });
});
