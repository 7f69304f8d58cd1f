import RFB from '@novnc/novnc';
import { bytesOf, RfbChannel, RFB_GREETING } from '../../lib/rfb/rfbChannel.ts';
import { h } from '../login/dom.ts';
import { orgHeaders } from './api.ts';
import { streamCast } from './castStream.ts';
import { clock, Timeline } from './timeline.ts';
import { t } from './texts.ts';

/**
 * The replay of a graphical session (`type: rfb`): the recording's `d` events are the RFB bytes the
 * browser received, from ServerInit on, with their times (modules/terminal/graphical/). noVNC
 * decodes them as if they came live, through an `RfbChannel` that first plays the gateway's
 * handshake. ZRLE keeps one zlib stream for the whole session, so no frame can be decoded on its
 * own: a seek backwards replays from the start (a new decoder fed everything up to that moment at
 * once; a seek forwards only feeds what lies between). Speed and idle skipping are the terminal
 * replay's (`timeline.ts`).
 */
const SPEEDS = [0.5, 1, 2, 4, 8];
const IDLE_LIMITS = [0.5, 1, 2, 5, 10, 0];
const IDLE_KEY = 'gatehouse.replay.idle';

export async function mountRfbReplay(
  root: HTMLElement,
  base: string,
  src: string,
  info: HTMLElement,
  status: HTMLElement,
): Promise<void> {
  const storedIdle = Number(localStorage.getItem(IDLE_KEY) ?? '2');
  const timeline = new Timeline(Number.isFinite(storedIdle) && storedIdle >= 0 ? storedIdle || Infinity : 2);
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
  const screen = h('div', { class: 'pl-screen pl-desktop', 'data-testid': 'replay-screen' });
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
      h('div', { class: 'pl-body' }, h('div', { class: 'pl-main' }, screen, status)),
      h('footer', { class: 'pl-controls' }, playBtn, clockEl, range, speedSel, idleSel),
    ),
  );

  let rfb: RFB | undefined;
  let channel: RfbChannel | undefined;
  let written = -1;
  let pos = 0;
  let playing = false;
  let speed = 1;
  let done = false;
  /** A fresh decoder on the screen, past the handshake. */
  const restart = () => {
    channel?.ended();
    try {
      rfb?.disconnect();
    } catch {
      // already gone
    }
    screen.replaceChildren();
    channel = new RfbChannel();
    rfb = new RFB(screen, channel);
    rfb.viewOnly = true;
    rfb.scaleViewport = true;
    rfb.background = '#141414';
    channel.opened();
    channel.deliver(RFB_GREETING);
    written = -1;
  };
  const writeUpTo = (target: number) => {
    if (target < written || !channel) restart();
    for (let i = written + 1; i <= target; i++) {
      const e = timeline.events[i]!;
      if (e.kind === 'd') channel!.deliver(bytesOf(e.data));
    }
    if (target > written) {
      written = target;
      screen.dataset.frames = String(written + 1);
    }
  };
  const render = () => {
    range.max = String(timeline.duration);
    range.value = String(pos);
    const real = timeline.realOf(pos);
    clockEl.textContent = `${clock(real)} / ${clock(timeline.events.at(-1)?.real ?? 0)}`;
    clockEl.dataset.real = real.toFixed(2);
    playBtn.textContent = playing ? t('pause') : t('play');
  };
  const seek = (p: number) => {
    pos = Math.max(0, Math.min(p, timeline.duration));
    writeUpTo(timeline.indexAt(pos));
    render();
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
    const real = timeline.realOf(pos);
    const limit = Number(idleSel.value);
    timeline.setIdleLimit(limit);
    localStorage.setItem(IDLE_KEY, String(limit));
    pos = timeline.playOf(real);
    render();
  });
  const startAt = Number(new URLSearchParams(location.search).get('t'));
  await streamCast(src, orgHeaders(), {
    header() {
      status.textContent = '';
    },
    events(batch) {
      const wasEmpty = !timeline.events.length;
      timeline.add(batch);
      if (wasEmpty && !(startAt > 0)) setPlaying(true);
      render();
    },
  });
  done = true;
  if (startAt > 0) {
    seek(timeline.playOf(startAt));
    setPlaying(true);
  }
  render();
}
