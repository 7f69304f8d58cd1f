import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import { h } from '../login/dom.ts';
import { api, ApiFailure } from './api.ts';
import { graphicalScreen } from './rfbMonitor.ts';
import { t } from './texts.ts';

/**
 * The monitor page (`/luna/monitor/<id>`), also the joiner's page of a sharing (`sharePage.ts`,
 * read-only or writable as the sharing says): the session's screen, live, through the
 * monitor socket (server: modules/terminal/monitorSocket.ts); pause/resume and terminate when the
 * socket says the watcher may (`can_terminate`), through the task API in the session's org.
 * Opened from a ticket (`?ticket_id=`, the ticket's reviewer), the socket and the pause/terminate
 * orders name the ticket (the `*-for-ticket/` task routes), which is what lets its reviewer in.
 */
interface Msg {
  type: string;
  data?: unknown;
  err?: string;
  reason?: string;
}

interface ConnectData {
  session: {
    id: string;
    user: string;
    asset: string;
    account: string;
    org_id: string;
    is_locked: boolean;
    protocol?: string;
  };
  can_terminate: boolean;
  /** `writable`: a writable sharing's joiner, whose keys go to the session. */
  permission?: string;
}

/** Joined through a sharing (sharePage.ts): the join record opens the socket instead of the session id. */
export interface MonitorOptions {
  joinRecordId?: string;
}

export function mountMonitor(root: HTMLElement, sessionId: string, o: MonitorOptions = {}): void {
  const ticketId = new URLSearchParams(location.search).get('ticket_id') ?? '';
  const title = o.joinRecordId ? t('title_share') : t('title_monitor');
  const forTicket = ticketId ? `-for-ticket/?ticket_id=${encodeURIComponent(ticketId)}` : '/';
  const term = new Terminal({
    disableStdin: true,
    cursorBlink: false,
    fontSize: 13,
    scrollback: 5000,
    theme: { background: '#141414' },
  });
  const fit = new FitAddon();
  term.loadAddon(fit);
  const status = h('span', { class: 'pl-tag', 'data-testid': 'monitor-status' }, t('connecting'));
  const info = h('div', { class: 'pl-info' });
  const message = h('div', { class: 'pl-status', 'data-testid': 'monitor-message' });
  const lockBtn = h('button', { class: 'pl-btn', type: 'button', hidden: true, 'data-testid': 'monitor-lock' });
  const killBtn = h(
    'button',
    { class: 'pl-btn danger', type: 'button', hidden: true, 'data-testid': 'monitor-terminate' },
    t('terminate'),
  );
  const screen = h('div', { class: 'pl-screen', 'data-testid': 'monitor-screen' });
  root.append(
    h(
      'div',
      { class: 'pl-page' },
      h('header', { class: 'pl-header' }, h('h1', {}, title), info, status, lockBtn, killBtn),
      h('div', { class: 'pl-body' }, h('div', { class: 'pl-main' }, screen, message)),
    ),
  );
  term.open(screen);
  fit.fit();
  window.addEventListener('resize', () => fit.fit());

  let session: ConnectData['session'] | undefined;
  /** A graphical session's screen (rfbMonitor.ts) instead of the terminal. */
  let desktop: ReturnType<typeof graphicalScreen> | undefined;
  let locked = false;
  let ended = false;
  let writable = false;
  const draw = () => {
    status.textContent = ended ? t('ended') : locked ? t('locked') : writable ? t('live_writable') : t('live');
    status.className = `pl-tag ${ended ? 'ended' : locked ? 'locked' : 'live'}`;
    lockBtn.textContent = locked ? t('resume_session') : t('pause_session');
    lockBtn.disabled = ended;
    killBtn.disabled = ended;
  };
  const act = async (url: string, body: unknown) => {
    try {
      await api(url, { method: 'POST', body, org: session?.org_id });
      message.textContent = '';
    } catch (e) {
      message.textContent = t('action_failed', { error: e instanceof ApiFailure ? e.message : String(e) });
    }
  };
  lockBtn.addEventListener('click', () => {
    const next = !locked;
    void act(`/api/v1/terminal/tasks/toggle-lock-session${forTicket}`, {
      session_id: sessionId,
      task_name: next ? 'lock_session' : 'unlock_session',
    }).then(() => {
      locked = next;
      draw();
    });
  });
  killBtn.addEventListener('click', () => {
    if (window.confirm(t('terminate_confirm')))
      void act(`/api/v1/terminal/tasks/kill-session${forTicket}`, [sessionId]);
  });

  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const query = o.joinRecordId
    ? `join_record_id=${encodeURIComponent(o.joinRecordId)}`
    : `session_id=${encodeURIComponent(sessionId)}${ticketId ? `&ticket_id=${encodeURIComponent(ticketId)}` : ''}`;
  const ws = new WebSocket(`${proto}//${location.host}/koko/ws/monitor/?${query}`);
  ws.addEventListener('message', (ev) => {
    let m: Msg;
    try {
      m = JSON.parse(String(ev.data)) as Msg;
    } catch {
      return;
    }
    if (m.type === 'CONNECT') {
      const d = m.data as ConnectData;
      session = d.session;
      locked = d.session.is_locked;
      if (d.session.protocol === 'vnc' || d.session.protocol === 'rdp') {
        term.dispose();
        screen.replaceChildren();
        screen.classList.add('pl-desktop');
        desktop = graphicalScreen(screen);
      }
      writable = d.permission === 'writable';
      if (writable) {
        term.options.disableStdin = false;
        term.options.cursorBlink = true;
        term.focus();
      }
      document.title = `${title} · ${d.session.asset}`;
      info.replaceChildren(
        ...(
          [
            ['user', d.session.user],
            ['asset', d.session.asset],
            ['account', d.session.account],
          ] as const
        ).map(([k, v]) => h('span', {}, h('b', {}, `${t(k)}: `), v)),
      );
      lockBtn.hidden = !d.can_terminate;
      killBtn.hidden = !d.can_terminate;
      draw();
    } else if (m.type === 'TERMINAL_DATA' && typeof m.data === 'string') {
      if (desktop) desktop.data(m.data);
      else term.write(m.data);
    } else if (m.type === 'STATUS') {
      locked = Boolean((m.data as { is_locked?: boolean }).is_locked);
      draw();
    } else if (m.type === 'TERMINAL_ERROR') message.textContent = m.err ?? '';
    else if (m.type === 'CLOSE') {
      ended = true;
      draw();
    }
  });
  // Only a writable sharing's keys are read by the server; a monitor's terminal takes none.
  term.onData((data) => {
    if (writable && !ended && ws.readyState === WebSocket.OPEN)
      ws.send(JSON.stringify({ type: 'TERMINAL_DATA', data }));
  });
  ws.addEventListener('close', () => {
    ended = true;
    draw();
  });
}
