// A Vitest reporter that writes how long each test file took, with its project, one JSON line per
// file, to the file named by GATEHOUSE_FILE_TIMES (scripts/test.mjs prints the slowest at the end).
// The time is the file's whole stay in its worker: import, set-up, tests and hooks.
import fs from 'node:fs';
import path from 'node:path';

export default class FileTimes {
  onTestModuleEnd(testModule) {
    const out = process.env.GATEHOUSE_FILE_TIMES;
    if (!out) return;
    const d = testModule.diagnostic();
    const ms = d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
    const line = { project: testModule.project.name, file: path.relative(process.cwd(), testModule.moduleId), ms };
    fs.appendFileSync(out, `${JSON.stringify(line)}\n`);
  }
}
