import { useEffect, useRef, useState } from 'react';
import { App, Button, Empty, Tabs, Tooltip } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { AssetTree } from './AssetTree.tsx';
import { ConnectDialog, connectWith, refusalText, type ConnectTarget, type Connected } from './ConnectDialog.tsx';
import {
  connectsDirectly,
  deepLinkOf,
  preselected,
  tokenBody,
  webMethods,
  accountLabel,
  pageProtocols,
} from './connectChoice.ts';
import type { TokenBody } from './connectChoice.ts';
import { containerOf, pinnedAsset, type LunaNode } from './assetTree.ts';
import { lunaApi } from './lunaApi.ts';
import { TerminalPane } from './TerminalPane.tsx';
import { GraphicalPane } from './GraphicalPane.tsx';
import { isGraphical } from './socketMessages.ts';
import { DEFAULT_PREFS, prefsOf, type TerminalPrefs } from './terminalOptions.ts';
import type { SessionState } from './useTerminalSocket.ts';
import styles from './luna.module.css';

interface SessionTab {
  key: string;
  title: string;
  token: string;
  /** What made the token: Reconnect makes a new one from it (a `?token=` link has none until CONNECT). */
  body?: TokenBody;
  /** A Kubernetes container's shell (its tab keeps the container's name as title). */
  container?: { namespace: string; pod: string; container: string };
  /** `vnc` / `rdp`: the tab shows a desktop (GraphicalPane.tsx) instead of a terminal. */
  protocol?: string;
  phase: SessionState['phase'];
}

let seq = 0;

/**
 * `/luna/`: the granted tree on the left, the open sessions as tabs on the right. Deep links:
 * `?login_to=<asset>[&login_account=<id or alias>]` opens the connect dialog (or connects at once
 * when the account needs nothing typed), `?token=<id>` opens a session with that token.
 */
export function LunaPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [tabs, setTabs] = useState<SessionTab[]>([]);
  const [active, setActive] = useState<string>();
  const [target, setTarget] = useState<ConnectTarget>();
  // A k8s asset's connect dialog answers the tree (its token) instead of opening a tab.
  const k8sAsk = useRef<(c: Connected | undefined) => void>(undefined);
  const k8sBodies = useRef(new Map<string, TokenBody>());
  // A deep link to a Kubernetes asset: the asset, open at the top of the tree, and the link's account.
  const [pinned, setPinned] = useState<LunaNode>();
  const linkAccount = useRef<{ asset: string; account?: string }>(undefined);
  const [prefs, setPrefs] = useState<TerminalPrefs>(DEFAULT_PREFS);
  const [ready, setReady] = useState(false);
  const started = useRef(false);

  const open = (c: Omit<Connected, 'body'> & { body?: TokenBody; container?: SessionTab['container'] }) => {
    const key = `s${++seq}`;
    setTabs((list) => [
      ...list,
      {
        key,
        title: c.title,
        token: c.token,
        body: c.body,
        container: c.container,
        protocol: c.body?.protocol,
        phase: 'connecting',
      },
    ]);
    setActive(key);
    setTarget(undefined);
  };

  useEffect(() => {
    document.title = t('luna.title');
  }, [t]);

  useEffect(() => {
    lunaApi
      .preferences()
      .then((p) => setPrefs(prefsOf(p)))
      .catch(() => undefined)
      .finally(() => setReady(true));
  }, []);

  useEffect(() => {
    if (!ready || started.current) return;
    started.current = true;
    const link = deepLinkOf(window.location.search);
    if (link.kind === 'token') open({ token: link.token, title: t('luna.tabs.session') });
    if (link.kind !== 'login') return;
    linkAccount.current = { asset: link.asset, ...(link.account ? { account: link.account } : {}) };
    // Connects at once when the link (or the only grant) names an account that needs nothing typed
    // and the asset offers one protocol this page opens (else the dialog lets the user choose).
    void Promise.all([lunaApi.accounts(link.asset), lunaApi.assetItem(link.asset), lunaApi.assetProtocols(link.asset)])
      .then(async ([accounts, item, protocols]) => {
        // A Kubernetes asset opens into its cluster in the tree (a container is then chosen there).
        if (item?.meta?.data?.platform_type === 'k8s') return setPinned(pinnedAsset(item));
        const offered = pageProtocols(protocols);
        const protocol = offered[0]!;
        const pick = preselected(accounts, link.account);
        const method = webMethods(await lunaApi.connectMethods(protocol))[0];
        if (!pick || !method || !connectsDirectly(pick) || offered.length > 1)
          return setTarget({ assetId: link.asset, account: link.account });
        open(await connectWith(tokenBody(link.asset, pick, protocol, method.value, {}), accountLabel(pick, t)));
      })
      .catch((e: unknown) => void message.error({ content: refusalText(e, t), duration: 8 }));
  }, [ready]); // eslint-disable-line react-hooks/exhaustive-deps -- once, when the preferences are there

  /** The connect dialog for a k8s asset; its token (undefined when cancelled) opens the cluster's tree. */
  const k8sToken = (asset: LunaNode) =>
    new Promise<string | undefined>((resolve) => {
      k8sAsk.current?.(undefined);
      k8sAsk.current = (c) => {
        k8sAsk.current = undefined;
        if (c) k8sBodies.current.set(asset.ref, c.body);
        resolve(c?.token);
      };
      const account = linkAccount.current?.asset === asset.ref ? linkAccount.current.account : undefined;
      setTarget({ assetId: asset.ref, assetName: asset.title, protocol: 'k8s', ...(account ? { account } : {}) });
    });
  const connected = (c: Connected) => {
    if (!k8sAsk.current) return open(c);
    k8sAsk.current(c);
    setTarget(undefined);
  };
  const cancelled = () => {
    k8sAsk.current?.(undefined);
    setTarget(undefined);
  };
  /** A container: a token exchanged from the tree's (each tab spends its own) opens its shell. */
  const openContainer = async (n: LunaNode) => {
    const container = containerOf(n);
    if (!container || !n.k8s) return;
    try {
      const fresh = await lunaApi.exchangeToken(n.k8s.token);
      const body = k8sBodies.current.get(n.k8s.assetId);
      open({ token: fresh.id, title: `${container.container}@${container.pod}`, body, container });
    } catch (e) {
      void message.error({ content: refusalText(e, t), duration: 8 });
    }
  };

  const reconnect = async (tab: SessionTab) => {
    if (!tab.body) return;
    try {
      const c = await connectWith(tab.body, tab.title);
      setTabs((list) => list.map((x) => (x.key === tab.key ? { ...x, token: c.token, phase: 'connecting' } : x)));
    } catch (e) {
      void message.error({ content: refusalText(e, t), duration: 8 });
    }
  };
  const onState = (key: string, s: SessionState) =>
    setTabs((list) =>
      list.map((x) => {
        if (x.key !== key) return x;
        if (s.phase !== 'connected') return { ...x, phase: s.phase };
        const { asset, account } = s.info;
        // A `?token=` session learns its asset and account here: enough to reconnect with a stored account.
        const body =
          x.body ??
          (account.id.startsWith('@')
            ? undefined
            : tokenBody(
                asset.id,
                {
                  id: account.id,
                  alias: account.name,
                  name: account.name,
                  username: account.username,
                  has_secret: true,
                  actions: [],
                },
                'ssh',
                'web_cli',
                {},
              ));
        const title = x.container ? x.title : `${account.username}@${asset.name}`;
        return { ...x, phase: s.phase, title, ...(body ? { body } : {}) };
      }),
    );
  const close = (key: string) => {
    setTabs((list) => {
      const rest = list.filter((x) => x.key !== key);
      if (active === key) setActive(rest[rest.length - 1]?.key);
      return rest;
    });
  };

  return (
    <div className={styles.page} data-testid="luna-page">
      <aside className={styles.side}>
        <div className={styles.brand}>{t('luna.title')}</div>
        <AssetTree
          onAsset={(a) => setTarget({ assetId: a.ref, assetName: a.title })}
          k8sToken={k8sToken}
          onContainer={(n) => void openContainer(n)}
          pinned={pinned}
        />
      </aside>
      <main className={styles.main}>
        {tabs.length === 0 ? (
          <Empty className={styles.empty} description={t('luna.tabs.empty')} />
        ) : (
          <Tabs
            type="editable-card"
            hideAdd
            activeKey={active}
            onChange={setActive}
            onEdit={(key, action) => action === 'remove' && close(String(key))}
            className={styles.tabs}
            items={tabs.map((tab) => ({
              key: tab.key,
              label: (
                <span data-testid="session-tab" data-phase={tab.phase}>
                  <span className={styles[`dot_${tab.phase}`]} />
                  {tab.title}
                  {tab.phase === 'ended' && tab.body ? (
                    <Tooltip title={t('luna.tabs.reconnect')}>
                      <Button
                        size="small"
                        type="link"
                        icon={<ReloadOutlined />}
                        aria-label={t('luna.tabs.reconnect')}
                        data-testid="reconnect"
                        onClick={(e) => {
                          e.stopPropagation();
                          void reconnect(tab);
                        }}
                      />
                    </Tooltip>
                  ) : null}
                </span>
              ),
              children: isGraphical(tab.protocol) ? (
                <GraphicalPane key={tab.token} token={tab.token} onState={(s) => onState(tab.key, s)} />
              ) : (
                <TerminalPane
                  key={tab.token}
                  token={tab.token}
                  prefs={prefs}
                  container={tab.container}
                  onState={(s) => onState(tab.key, s)}
                />
              ),
            }))}
          />
        )}
      </main>
      {target ? <ConnectDialog target={target} onConnected={connected} onCancel={cancelled} /> : null}
    </div>
  );
}
