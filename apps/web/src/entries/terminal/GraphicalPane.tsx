import { useEffect, useRef } from 'react';
import { Alert, App, Button, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useGraphicalSocket } from './useGraphicalSocket.ts';
import { closeReasonKey } from './socketMessages.ts';
import type { SessionState } from './useTerminalSocket.ts';
import styles from './luna.module.css';

interface Props {
  token: string;
  onState(state: SessionState): void;
}

/**
 * One graphical (VNC, RDP) session's tab: the desktop drawn by noVNC (useGraphicalSocket.ts), the
 * status bar with the clipboard as the permission allows it (the gateway filters the RFB clipboard
 * messages itself; the page only does not offer what would be dropped): the asset's clipboard is
 * copied to the browser's when copy is allowed, "Paste" sends the browser's clipboard when paste
 * is; Ctrl+Alt+Del for desktops that need it. The end's reason shows over the desktop.
 */
export function GraphicalPane({ token, onState }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const box = useRef<HTMLDivElement>(null);
  const { state, handle } = useGraphicalSocket(box, token, (text) => {
    void navigator.clipboard
      .writeText(text)
      .then(() => message.info({ content: t('luna.graphical.copied'), key: 'gui-copied' }))
      .catch(() => undefined);
  });
  const clip = state.phase === 'connected' ? state.info.clipboard : { copy: false, paste: false };
  const onStateRef = useRef(onState);
  onStateRef.current = onState;
  useEffect(() => onStateRef.current(state), [state]);

  const paste = async () => {
    const text = await navigator.clipboard.readText().catch(() => '');
    if (!text) return void message.warning({ content: t('luna.graphical.clipboardEmpty'), key: 'gui-paste' });
    handle.current.rfb?.clipboardPasteFrom(text);
    void message.success({ content: t('luna.graphical.pasted'), key: 'gui-paste' });
    handle.current.rfb?.focus();
  };

  return (
    <div
      className={styles.pane}
      data-testid="graphical-pane"
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
            {clip.paste ? (
              <Button size="small" onClick={() => void paste()} data-testid="graphical-paste">
                {t('luna.graphical.paste')}
              </Button>
            ) : null}
            <Button size="small" onClick={() => handle.current.rfb?.sendCtrlAltDel()} data-testid="graphical-cad">
              Ctrl+Alt+Del
            </Button>
          </>
        ) : null}
        {state.phase === 'ended' ? <Tag color="default">{t('luna.status.ended')}</Tag> : null}
      </div>
      {state.phase === 'ended' ? (
        <Alert
          type={state.reason === 'error' ? 'error' : 'info'}
          showIcon
          title={state.error ?? t(closeReasonKey(state.reason))}
          data-testid="graphical-ended"
        />
      ) : null}
      <div ref={box} className={styles.desktop} data-testid="desktop" />
    </div>
  );
}
