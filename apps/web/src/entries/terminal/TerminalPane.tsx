import { useEffect, useRef, useState } from 'react';
import { App, Button, Input, Space, Tag, Tooltip } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, CloseOutlined, ShareAltOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import '@xterm/xterm/css/xterm.css';
import { useTerminalSocket, type SessionState } from './useTerminalSocket.ts';
import { lunaApi } from './lunaApi.ts';
import { ShareDialog } from './ShareDialog.tsx';
import type { ShareNotice } from './socketMessages.ts';
import type { TerminalPrefs } from './terminalOptions.ts';
import styles from './luna.module.css';

interface Props {
  token: string;
  prefs: TerminalPrefs;
  /** A Kubernetes container to open a shell in (with a k8s token). */
  container?: { namespace: string; pod: string; container: string };
  onState(state: SessionState): void;
}

/**
 * One session's terminal: the xterm box, its search bar (Ctrl+F) and the clipboard as the
 * permission allows it (CONNECT's `clipboard`): a selection is copied, Ctrl+Shift+V pastes (and
 * right click, with the preference); a refused copy or paste says so instead of doing it. Share opens
 * ShareDialog.tsx, and who joins or leaves through a sharing is told in a notification.
 */
export function TerminalPane({ token, prefs, container, onState }: Props) {
  const { t } = useTranslation();
  const { message, notification } = App.useApp();
  const box = useRef<HTMLDivElement>(null);
  const onShare = (n: ShareNotice) =>
    notification.info({
      title: t(n.event === 'joined' ? 'luna.share.joined' : 'luna.share.left', {
        user: n.user,
        permission: t(n.permission === 'writable' ? 'luna.share.writable' : 'luna.share.readonly'),
      }),
      placement: 'bottomRight',
    });
  const { state, handle } = useTerminalSocket(box, token, prefs, container, onShare);
  const [sharing, setSharing] = useState(false);
  const shareAllowed = useQuery({ queryKey: ['luna', 'sharing-enabled'], queryFn: lunaApi.sharingEnabled }).data;
  const [searching, setSearching] = useState(false);
  const [needle, setNeedle] = useState('');
  const clip = state.phase === 'connected' ? state.info.clipboard : { copy: false, paste: false };
  const clipRef = useRef(clip);
  clipRef.current = clip;
  const live = useRef(state.phase === 'connected');
  live.current = state.phase === 'connected';
  const onStateRef = useRef(onState);
  onStateRef.current = onState;
  useEffect(() => onStateRef.current(state), [state]);

  useEffect(() => {
    const term = handle.current.term;
    const el = box.current;
    if (!term || !el) return;
    const denied = (what: 'copy' | 'paste') =>
      void message.warning({ content: t(`luna.clipboard.${what}Denied`), key: `clip-${what}` });
    const paste = async () => {
      if (!live.current) return;
      if (!clipRef.current.paste) return denied('paste');
      const text = await navigator.clipboard.readText().catch(() => '');
      if (text) term.paste(text);
    };
    const copy = () => {
      const text = term.getSelection();
      if (!text) return;
      if (!clipRef.current.copy) return denied('copy');
      void navigator.clipboard.writeText(text).catch(() => undefined);
    };
    term.attachCustomKeyEventHandler((e) => {
      if (e.type !== 'keydown') return true;
      const key = e.key.toLowerCase();
      if ((e.ctrlKey || e.metaKey) && key === 'f') {
        setSearching(true);
        e.preventDefault();
        return false;
      }
      if (e.ctrlKey && e.shiftKey && key === 'v') {
        void paste();
        e.preventDefault();
        return false;
      }
      if (e.ctrlKey && e.shiftKey && key === 'c') {
        copy();
        e.preventDefault();
        return false;
      }
      return true;
    });
    const selection = term.onSelectionChange(copy);
    // The browser's own copy and paste (menu, Ctrl+V, Ctrl+Insert) follow the same flags.
    const onPaste = (e: ClipboardEvent) => {
      if (clipRef.current.paste) return;
      e.preventDefault();
      e.stopPropagation();
      denied('paste');
    };
    const onCopy = (e: ClipboardEvent) => {
      if (clipRef.current.copy) return;
      e.preventDefault();
      e.stopPropagation();
    };
    // Right click pastes at once when the user prefers it; otherwise the browser's menu (its Paste is checked above).
    const onContext = (e: MouseEvent) => {
      if (!prefs.rightClickPaste) return;
      e.preventDefault();
      void paste();
    };
    el.addEventListener('paste', onPaste, true);
    el.addEventListener('copy', onCopy, true);
    el.addEventListener('contextmenu', onContext);
    return () => {
      selection.dispose();
      el.removeEventListener('paste', onPaste, true);
      el.removeEventListener('copy', onCopy, true);
      el.removeEventListener('contextmenu', onContext);
    };
  }, [handle, message, t, token, prefs.rightClickPaste]);

  const find = (back = false) => {
    const s = handle.current.search;
    if (!s || !needle) return;
    if (back) s.findPrevious(needle);
    else s.findNext(needle);
  };
  const closeSearch = () => {
    setSearching(false);
    handle.current.search?.clearDecorations();
    handle.current.term?.focus();
  };

  return (
    <div
      className={styles.pane}
      data-testid="terminal-pane"
      data-phase={state.phase}
      data-session={state.phase === 'connected' ? state.info.sessionId : undefined}
    >
      <div className={styles.status}>
        {state.phase === 'connecting' ? <Tag color="processing">{t('luna.status.connecting')}</Tag> : null}
        {state.phase === 'connected' ? (
          <>
            <Tag color="success">{t('luna.status.connected')}</Tag>
            <span data-testid="session-target">
              {state.info.account.username}@{state.info.asset.name}
            </span>
            <Tag data-testid="clipboard-copy" color={clip.copy ? 'blue' : 'default'}>
              {t(clip.copy ? 'luna.clipboard.copyOn' : 'luna.clipboard.copyOff')}
            </Tag>
            <Tag data-testid="clipboard-paste" color={clip.paste ? 'blue' : 'default'}>
              {t(clip.paste ? 'luna.clipboard.pasteOn' : 'luna.clipboard.pasteOff')}
            </Tag>
            {shareAllowed ? (
              <Button
                size="small"
                icon={<ShareAltOutlined />}
                onClick={() => setSharing(true)}
                className={styles.shareButton}
                data-testid="share-open"
              >
                {t('luna.share.button')}
              </Button>
            ) : null}
          </>
        ) : null}
        {state.phase === 'ended' ? <Tag color="default">{t('luna.status.ended')}</Tag> : null}
      </div>
      {searching ? (
        <Space.Compact className={styles.search} data-testid="terminal-search">
          <Input
            size="small"
            autoFocus
            placeholder={t('luna.search.placeholder')}
            value={needle}
            onChange={(e) => setNeedle(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') find(e.shiftKey);
              if (e.key === 'Escape') closeSearch();
            }}
          />
          <Tooltip title={t('luna.search.previous')}>
            <Button
              size="small"
              icon={<ArrowUpOutlined />}
              onClick={() => find(true)}
              aria-label={t('luna.search.previous')}
            />
          </Tooltip>
          <Tooltip title={t('luna.search.next')}>
            <Button
              size="small"
              icon={<ArrowDownOutlined />}
              onClick={() => find()}
              aria-label={t('luna.search.next')}
            />
          </Tooltip>
          <Button size="small" icon={<CloseOutlined />} onClick={closeSearch} aria-label={t('luna.search.close')} />
        </Space.Compact>
      ) : null}
      <div ref={box} className={styles.terminal} data-testid="terminal" />
      {sharing && state.phase === 'connected' ? (
        <ShareDialog sessionId={state.info.sessionId} onClose={() => setSharing(false)} />
      ) : null}
    </div>
  );
}
