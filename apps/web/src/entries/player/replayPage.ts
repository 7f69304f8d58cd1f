import { Terminal } from '@xterm/xterm';
import { SearchAddon } from '@xterm/addon-search';
import { h } from '../login/dom.ts';
import { api, ApiFailure, orgHeaders, type CommandRow, type SessionInfo } from './api.ts';
import { streamCast, type CastHeader } from './castStream.ts';
import { OutputIndex } from './outputSearch.ts';
import { clock, Timeline } from './timeline.ts';
import { t } from './texts.ts';
import { mountRfbReplay } from './rfbReplay.ts';

/**
 * The replay page (`/luna/replay/<id>`): an xterm.js player over the recording streamed as it
 * downloads (castStream.ts), with play/pause (space), speeds 0.5-8x, a draggable timeline in play
 * time (idle stretches over the chosen limit compressed, timeline.ts), the session's commands
 * beside it (a click seeks to the moment the command ran) and a search through the output text
 * (outputSearch.ts). `?t=<seconds>` (since the start) or `?ts=<epoch seconds>` starts at that moment.
 */
const SPEEDS = [0.5, 1, 2, 4, 8];
const IDLE_LIMITS = [0.5, 1, 2, 5, 10, 0];
const IDLE_KEY = 'gatehouse.replay.idle';

export async function mountReplay(root: HTMLElement, sessionId: string): Promise<void> {
  const base = `/api/v1/terminal/sessions/${encodeURIComponent(sessionId)}/`;
  // A graphical session's recording is RFB, replayed by noVNC (rfbReplay.ts).
  const first = await api<{ type?: string; src: string }>(`${base}replay/`).catch(() => undefined);
  if (first?.type === 'rfb') {
    const info = h('div', { class: 'pl-info' });
    const status = h('div', { class: 'pl-status', 'data-testid': 'replay-status' }, t('loading'));
    void api<SessionInfo>(base)
      .then((session) => {
        document.title = `${t('title_replay')} · ${session.asset}`;
        info.replaceChildren(
          ...(
            [
              ['user', session.user],
              ['asset', session.asset],
              ['account', session.account],
              ['date_start', session.date_start],
            ] as const
          ).map(([k, v]) => h('span', {}, h('b', {}, `${t(k)}: `), v)),
        );
      })
      .catch(() => undefined);
    return mountRfbReplay(root, base, first.src, info, status).catch(() => {
      status.textContent = t('load_failed');
      status.classList.add('error');
    });
  }
  const storedIdle = Number(localStorage.getItem(IDLE_KEY) ?? '2');
  const timeline = new Timeline(Number.isFinite(storedIdle) && storedIdle >= 0 ? storedIdle || Infinity : 2);
  const index = new OutputIndex(timeline.events);
  const term = new Terminal({
    disableStdin: true,
    cursorBlink: false,
    fontSize: 13,
    scrollback: 5000,
    allowProposedApi: true,
    theme: { background: '#141414' },
  });
  const searchAddon = new SearchAddon();
  term.loadAddon(searchAddon);

  let header: CastHeader | undefined;
  let done = false;
  let pos = 0;
  let written = -1;
  let playing = false;
  let speed = 1;
  let pendingReal: number | undefined;
  let commands: (CommandRow & { offset: number })[] = [];
  let firstFrame = false;

  const playBtn = h('button', { class: 'pl-btn pl-play', type: 'button', 'data-testid': 'replay-play' }, t('play'));
  const clockEl = h('span', { class: 'pl-clock', 'data-testid': 'replay-clock' }, '0:00');
  const range = h('input', {
    type: 'range',
    class: 'pl-range',
    min: '0',
    max: '0',
    step: '0.01',
    value: '0',
    'aria-label': t('timeline'),
    'data-testid': 'replay-timeline',
  });
  const speedSel = h(
    'select',
    { class: 'pl-select', 'aria-label': t('speed'), 'data-testid': 'replay-speed' },
    ...SPEEDS.map((s) => h('option', { value: String(s), selected: s === 1 }, `${s}x`)),
  );
  const idleSel = h(
    'select',
    { class: 'pl-select', 'aria-label': t('idle'), 'data-testid': 'replay-idle' },
    ...IDLE_LIMITS.map((s) =>
      h(
        'option',
        { value: String(s), selected: (s || Infinity) === timeline.limit },
        s ? t('seconds', { n: s }) : t('idle_off'),
      ),
    ),
  );
  const status = h('div', { class: 'pl-status', 'data-testid': 'replay-status' }, t('loading'));
  const info = h('div', { class: 'pl-info' });
  const screen = h('div', { class: 'pl-screen', 'data-testid': 'replay-screen' });
  const searchInput = h('input', {
    class: 'pl-search',
    type: 'search',
    placeholder: t('search'),
    'aria-label': t('search'),
    'data-testid': 'replay-search',
  });
  const searchCount = h('span', { class: 'pl-count', 'data-testid': 'replay-search-count' });
  const prevBtn = h('button', { class: 'pl-btn small', type: 'button', title: t('search_prev') }, '↑');
  const nextBtn = h('button', { class: 'pl-btn small', type: 'button', title: t('search_next') }, '↓');
  const cmdList = h('ol', { class: 'pl-commands', 'data-testid': 'replay-commands' });

  root.append(
    h(
      'div',
      { class: 'pl-page' },
      h(
        'header',
        { class: 'pl-header' },
        h('h1', {}, t('title_replay')),
        info,
        h('a', { class: 'pl-btn', href: `${base}replay/download/${location.search}`, download: '' }, t('download')),
      ),
      h(
        'div',
        { class: 'pl-body' },
        h('div', { class: 'pl-main' }, screen, status),
        h(
          'aside',
          { class: 'pl-side' },
          h('div', { class: 'pl-searchbar' }, searchInput, prevBtn, nextBtn, searchCount),
          h('h2', {}, t('commands')),
          cmdList,
        ),
      ),
      h('footer', { class: 'pl-controls' }, playBtn, clockEl, range, speedSel, idleSel),
    ),
  );
  term.open(screen);

  /** Writes every event up to index `target` (resizes between them), resetting first to go back. */
  const writeUpTo = (target: number) => {
    if (target < written) {
      term.reset();
      written = -1;
    }
    let buf = '';
    for (let i = written + 1; i <= target; i++) {
      const e = timeline.events[i]!;
      if (e.kind === 'o') buf += e.data;
      else if (e.kind === 'r') {
        const m = /^(\d+)x(\d+)$/.exec(e.data);
        if (m) {
          if (buf) term.write(buf);
          buf = '';
          term.resize(Number(m[1]), Number(m[2]));
        }
      }
    }
    if (buf) {
      term.write(buf, () => {
        if (!firstFrame) {
          firstFrame = true;
          document.body.dataset.firstFrame = String(performance.now());
        }
      });
    }
    written = Math.max(written, target);
  };

  const realNow = () => timeline.realOf(pos);
  const render = () => {
    range.max = String(timeline.duration);
    range.value = String(pos);
    const real = realNow();
    clockEl.textContent = `${clock(real)} / ${clock(timeline.events.at(-1)?.real ?? 0)}`;
    clockEl.dataset.real = real.toFixed(2);
    playBtn.textContent = playing ? t('pause') : t('play');
    let active = -1;
    commands.forEach((c, i) => {
      if (c.offset <= real + 0.05) active = i;
    });
    cmdList.querySelectorAll('li').forEach((li, i) => li.classList.toggle('active', i === active));
  };

  const seek = (p: number) => {
    pos = Math.max(0, Math.min(p, timeline.duration));
    writeUpTo(timeline.indexAt(pos));
    render();
  };
  const seekReal = (real: number) => {
    if (!done && (timeline.events.at(-1)?.real ?? -1) < real) {
      pendingReal = real; // not downloaded yet: seek when it arrives
      return;
    }
    pendingReal = undefined;
    seek(timeline.playOf(real));
  };

  let last = 0;
  const tick = (now: number) => {
    const dt = last ? (now - last) / 1000 : 0;
    last = now;
    if (playing) {
      pos += dt * speed;
      if (pos >= timeline.duration) {
        pos = timeline.duration;
        if (done) playing = false;
      }
      writeUpTo(timeline.indexAt(pos));
      render();
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);

  const setPlaying = (p: boolean) => {
    if (p && done && pos >= timeline.duration) seek(0);
    playing = p;
    render();
  };
  playBtn.addEventListener('click', () => setPlaying(!playing));
  document.addEventListener('keydown', (e) => {
    if (e.key === ' ' && document.activeElement?.tagName !== 'INPUT') {
      e.preventDefault();
      setPlaying(!playing);
    }
  });
  range.addEventListener('input', () => seek(Number(range.value)));
  speedSel.addEventListener('change', () => (speed = Number(speedSel.value)));
  idleSel.addEventListener('change', () => {
    const real = realNow();
    const limit = Number(idleSel.value);
    timeline.setIdleLimit(limit);
    localStorage.setItem(IDLE_KEY, String(limit));
    pos = timeline.playOf(real);
    render();
  });

  let hits: number[] = [];
  let hit = -1;
  const showHit = (i: number) => {
    if (!hits.length) {
      searchCount.textContent = searchInput.value ? t('search_none') : '';
      return;
    }
    hit = (i + hits.length) % hits.length;
    setPlaying(false);
    seek(timeline.events[hits[hit]!]!.play);
    searchCount.textContent = t('search_count', { i: hit + 1, n: hits.length });
    term.write('', () => searchAddon.findPrevious(searchInput.value, { caseSensitive: false }));
  };
  let searchTimer: number | undefined;
  const runSearch = () => {
    hits = index.find(searchInput.value);
    showHit(0);
  };
  searchInput.addEventListener('input', () => {
    clearTimeout(searchTimer);
    searchTimer = window.setTimeout(runSearch, 250);
  });
  searchInput.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') showHit(hit + (e.shiftKey ? -1 : 1));
  });
  prevBtn.addEventListener('click', () => showHit(hit - 1));
  nextBtn.addEventListener('click', () => showHit(hit + 1));

  const params = new URLSearchParams(location.search);
  const startAt = Number(params.get('t'));
  // `?ts=<epoch seconds>`: a moment of the session named absolutely (the commands list's links).
  const startEpoch = Number(params.get('ts'));
  let playAfterStart = false;
  if (startAt > 0) {
    pendingReal = startAt;
    playAfterStart = true;
  }
  const reachPending = () => {
    if (pendingReal === undefined) return;
    if (!done && (timeline.events.at(-1)?.real ?? 0) < pendingReal) return;
    seekReal(pendingReal);
    if (playAfterStart) {
      playAfterStart = false;
      setPlaying(true);
    }
  };

  const drawCommands = () => {
    cmdList.replaceChildren(
      ...(commands.length
        ? commands.map((c) =>
            h(
              'li',
              { class: `risk-${c.risk_level?.value ?? 0}` },
              h(
                'button',
                { type: 'button', onclick: () => seekReal(c.offset), title: c.risk_level?.label ?? '' },
                h('span', { class: 'pl-cmd-time' }, clock(c.offset)),
                h('code', {}, c.input),
              ),
            ),
          )
        : [h('li', { class: 'empty' }, t('no_commands'))]),
    );
    render();
  };

  const loadCommands = async () => {
    const rows = await api<CommandRow[]>(
      `/api/v1/terminal/commands/?session_id=${encodeURIComponent(sessionId)}&order=timestamp`,
    ).catch(() => [] as CommandRow[]);
    return rows;
  };

  try {
    const [replay, session, rows] = await Promise.all([
      api<{ src: string }>(`${base}replay/`),
      api<SessionInfo>(base).catch(() => undefined),
      loadCommands(),
    ]);
    if (session) {
      document.title = `${t('title_replay')} · ${session.asset}`;
      info.replaceChildren(
        ...(
          [
            ['user', session.user],
            ['asset', session.asset],
            ['account', session.account],
            ['date_start', session.date_start],
          ] as const
        ).map(([k, v]) => h('span', {}, h('b', {}, `${t(k)}: `), v)),
      );
    }
    await streamCast(replay.src, orgHeaders(), {
      header(hd) {
        header = hd;
        term.resize(Math.max(2, hd.width || 80), Math.max(1, hd.height || 24));
        commands = rows.map((c) => ({
          ...c,
          offset: Math.max(0, (c.timestamp_ms ? c.timestamp_ms / 1000 : c.timestamp) - hd.timestamp),
        }));
        if (startEpoch > 0 && !(startAt > 0)) {
          pendingReal = Math.max(0, startEpoch - hd.timestamp);
          playAfterStart = true;
        }
        drawCommands();
      },
      events(batch) {
        const wasEmpty = !timeline.events.length;
        timeline.add(batch);
        if (wasEmpty) {
          status.textContent = '';
          if (pendingReal === undefined) setPlaying(true);
        }
        reachPending();
        render();
      },
    });
    done = true;
    if (!header) throw new Error('empty');
    reachPending();
    render();
  } catch (e) {
    status.textContent = e instanceof ApiFailure && e.status === 404 ? t('not_found') : t('load_failed');
    status.classList.add('error');
  }
}
