import '@xterm/xterm/css/xterm.css';
import './player.css';
import { mountMonitor } from './monitorPage.ts';
import { mountReplay } from './replayPage.ts';
import { mountShare } from './sharePage.ts';
import { loadTexts } from './texts.ts';

/**
 * The player's entry (player.html, served at `/luna/replay/<id>`, `/luna/monitor/<id>` and
 * `/luna/share/<sharing id>` by
 * modules/terminal/playerPageRoutes.ts): plain DOM and xterm.js, no React or antd, so the replay
 * starts within a second.
 */
const m = /^\/luna\/(replay|monitor|share)\/([^/]+)\/?$/.exec(location.pathname);
void loadTexts()
  .catch(() => loadTexts('en'))
  .then(() => {
    const root = document.getElementById('root')!;
    if (!m) return;
    const id = decodeURIComponent(m[2]!);
    if (m[1] === 'replay') void mountReplay(root, id);
    else if (m[1] === 'share') mountShare(root, id);
    else mountMonitor(root, id);
  });
