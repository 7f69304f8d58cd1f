import RFB from '@novnc/novnc';
import { bytesOf, RfbChannel, RFB_GREETING } from '../../lib/rfb/rfbChannel.ts';

/**
 * A running graphical session watched live (monitorPage.ts): noVNC, view only, fed the session's
 * RFB stream from the monitor socket. The first message a watcher can use is the stream so far
 * (`{"rfb_from_start": base64}`, published by the session when someone starts watching); chunks
 * before it are dropped (they are part of it), later ones are base64 strings, and another
 * watcher's `rfb_from_start` is ignored once started.
 */
export function graphicalScreen(el: HTMLElement): { data(text: string): void } {
  const channel = new RfbChannel();
  const rfb = new RFB(el, channel);
  rfb.viewOnly = true;
  rfb.scaleViewport = true;
  rfb.background = '#141414';
  channel.opened();
  channel.deliver(RFB_GREETING);
  let started = false;
  return {
    data(text) {
      if (text.startsWith('{')) {
        if (started) return;
        try {
          const m = JSON.parse(text) as { rfb_from_start?: string };
          if (typeof m.rfb_from_start !== 'string') return;
          started = true;
          channel.deliver(bytesOf(m.rfb_from_start));
          el.dataset.started = 'true';
        } catch {
          // not ours
        }
      } else if (started) channel.deliver(bytesOf(text));
    },
  };
}
