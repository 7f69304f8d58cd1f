import './login.css';
import { mountLoginPage } from './loginPage.ts';
import './passkeyMethod.ts';
import './ssoMethod.ts';
import { loadTexts } from './texts.ts';

/**
 * The login page's entry (login.html): plain DOM and TypeScript, so its first load stays small (no
 * React, antd or i18next; budget in bench/bundleBench.ts). Other sign-in methods register with
 * `addLoginMethod` (loginMethods.ts) by being imported here, before the page is drawn.
 */
void loadTexts()
  .catch(() => loadTexts('en'))
  .then(() => mountLoginPage(document.getElementById('root')!));
