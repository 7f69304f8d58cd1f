import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { launched, SHOTS } from './browser.ts';

/**
 * When a browser test fails, every page still open is photographed (.tmp/screenshots/failed-*.png)
 * and its address and the messages it shows (alerts, notifications, dialogs) are written to
 * .tmp/results/e2e-failures.txt, which the test runner (scripts/test.mjs) prints with the failure:
 * a flaky failure on a slow machine then says what the page showed.
 */
const REPORT = path.resolve(import.meta.dirname, '../../../.tmp/results/e2e-failures.txt');
const SHOWN =
  '.ant-alert, .gh-alert, .ant-message-notice, .ant-notification-notice, .ant-modal-content, .ant-form-item-explain';

afterEach(async ({ task }) => {
  if (task.result?.state !== 'fail') return;
  const slug = `${path.basename(task.file.name, '.e2e.test.ts')}-${task.name}`.replace(/[^\w-]+/g, '_').slice(0, 80);
  const lines = [`${task.file.name} › ${task.name}`];
  fs.mkdirSync(SHOTS, { recursive: true });
  let n = 0;
  for (const browser of launched)
    for (const context of browser.contexts())
      for (const page of context.pages()) {
        const shot = path.join(SHOTS, `failed-${slug}-${++n}.png`);
        await page.screenshot({ path: shot, timeout: 5_000 }).catch(() => undefined);
        const shown = await page
          .locator(SHOWN)
          .allInnerTexts()
          .catch(() => []);
        lines.push(`  page ${n}: ${page.url()} (${path.relative(process.cwd(), shot)})`);
        for (const text of shown) lines.push(`    shows: ${text.replace(/\s+/g, ' ').slice(0, 200)}`);
      }
  fs.mkdirSync(path.dirname(REPORT), { recursive: true });
  fs.appendFileSync(REPORT, `${lines.join('\n')}\n`);
});
