import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * One execution's private folder (0700, the runner's OS user's own): the inventory, the account
 * secrets (0600), the copy of the playbook, HOME and TMP of ansible-playbook. Written for that run
 * only and removed after it, whether it succeeded, failed, timed out or threw.
 */
export class RunDir {
  readonly root: string;
  readonly home: string;
  readonly tmp: string;
  readonly project: string;

  private constructor(
    root: string,
    private readonly owner?: { uid: number; gid: number },
  ) {
    this.root = root;
    this.home = path.join(root, 'home');
    this.tmp = path.join(root, 'tmp');
    this.project = path.join(root, 'project');
  }

  /** `label` (the execution's id) names the folder, `gh-ansible-<label>-XXXXXX`. */
  static create(label: string, owner?: { uid: number; gid: number }): RunDir {
    const safe = label.replace(/[^A-Za-z0-9-]/g, '').slice(0, 40);
    const root = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), `gh-ansible-${safe}-`));
    const d = new RunDir(root, owner);
    fs.chmodSync(root, 0o700);
    for (const dir of [d.home, d.tmp, d.project, path.join(root, 'secrets'), path.join(root, 'plugins')])
      fs.mkdirSync(dir, { mode: 0o700 });
    return d;
  }

  path(...parts: string[]): string {
    return path.join(this.root, ...parts);
  }

  /** Writes a file of the run (0600: secrets and inventory are readable by the runner alone). */
  write(rel: string, content: string | Buffer): string {
    const file = this.path(rel);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, content, { mode: 0o600, flag: 'wx' });
    return file;
  }

  /** Gives every file of the run to the runner's OS user, once everything is written. */
  handOver(): void {
    if (!this.owner) return;
    const { uid, gid } = this.owner;
    const walk = (p: string) => {
      fs.lchownSync(p, uid, gid);
      if (fs.lstatSync(p).isDirectory()) for (const e of fs.readdirSync(p)) walk(path.join(p, e));
    };
    walk(this.root);
  }

  remove(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}
