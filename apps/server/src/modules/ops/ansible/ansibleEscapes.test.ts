import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShellSshd, type SshdWithUsers } from '../../../../test-support/sshd.ts';
import { plan, playbookFolder, requireAnsible, sshdHost } from '../../../../test-support/ansible.ts';
import { executePlan } from './ansibleRunner.ts';
import { chooseIsolation } from './isolation.ts';
import { checkPlaybook } from './playbookCheck.ts';

/**
 * The host that runs Ansible is not the target (CVE-2024-29020/29201/29202 in the original): each
 * way a playbook could act on, or read from, the Gatehouse host is refused before anything runs
 * and leaves the host untouched (the first wall); and with the check bypassed on purpose, a task
 * running on the Gatehouse host still reads nothing of Gatehouse's (the second wall).
 */
let sshd: SshdWithUsers;
let dataDir: string;
let secretFile: string;
const SECRET = `top-secret-${randomUUID()}`;
const folders: string[] = [];

beforeAll(async () => {
  requireAnsible();
  sshd = await startShellSshd();
  // A DATA_DIR anyone could read, holding a world-readable secret: only the isolation protects it.
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-data-'));
  fs.chmodSync(dataDir, 0o755);
  secretFile = path.join(dataDir, 'secret.key');
  fs.writeFileSync(secretFile, SECRET, { mode: 0o644 });
});
afterAll(() => {
  sshd?.stop();
  for (const d of [dataDir, ...folders]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

const marker = () => path.join(os.tmpdir(), `gh-escape-${randomUUID()}`);
const play = (body: string) => `- hosts: all\n  gather_facts: false\n${body}`;

/** Each escape: its files (MARKER and SECRET in them replaced), and the check's finding. */
const ESCAPES: { name: string; files: Record<string, string>; code: string }[] = [
  {
    name: 'connection: local (any case)',
    files: { 'main.yml': play('  connection: LOCAL\n  tasks:\n    - ansible.builtin.shell: touch MARKER\n') },
    code: 'check_connection_local',
  },
  {
    name: 'connection: local spelt with a YAML escape',
    files: { 'main.yml': play('  connection: "lo\\x63al"\n  tasks:\n    - shell: touch MARKER\n') },
    code: 'check_connection_local',
  },
  {
    name: 'a play on localhost (Ansible’s implicit local host)',
    files: { 'main.yml': '- hosts: all:localhost\n  gather_facts: false\n  tasks:\n    - shell: touch MARKER\n' },
    code: 'check_hosts_local',
  },
  {
    name: 'vars ansible_connection: local',
    files: { 'main.yml': play('  vars:\n    ansible_connection: local\n  tasks:\n    - shell: touch MARKER\n') },
    code: 'check_connection_var',
  },
  {
    name: 'set_fact of ansible_connection through a Jinja dict',
    files: {
      'main.yml': play(
        `  tasks:\n    - set_fact: "{{ {'ansible_connection': 'local'} }}"\n    - shell: touch MARKER\n`,
      ),
    },
    code: 'check_connection_var',
  },
  {
    name: 'delegate_to localhost',
    files: { 'main.yml': play('  tasks:\n    - shell: touch MARKER\n      delegate_to: localhost\n') },
    code: 'check_delegate_local',
  },
  {
    name: 'run_once with delegate_to 127.0.0.1',
    files: {
      'main.yml': play('  tasks:\n    - shell: touch MARKER\n      run_once: true\n      delegate_to: 127.0.0.1\n'),
    },
    code: 'check_delegate_local',
  },
  {
    name: 'local_action',
    files: { 'main.yml': play('  tasks:\n    - local_action: ansible.builtin.shell touch MARKER\n') },
    code: 'check_local_action',
  },
  {
    name: "lookup('pipe', ...)",
    files: { 'main.yml': play(`  tasks:\n    - debug:\n        msg: "{{ lookup('pipe', 'touch MARKER') }}"\n`) },
    code: 'check_lookup',
  },
  {
    name: "query('file', <a DATA_DIR file>) in a template file",
    files: {
      'main.yml': play('  tasks:\n    - template:\n        src: templates/t.j2\n        dest: /tmp/x\n'),
      'templates/t.j2': "{{ query('file', 'SECRET_FILE') }}\n",
    },
    code: 'check_lookup',
  },
  {
    name: 'a lookup loop (with_file)',
    files: { 'main.yml': play('  tasks:\n    - debug: msg={{ item }}\n      with_file:\n        - SECRET_FILE\n') },
    code: 'check_loop_lookup',
  },
  {
    name: 'template src from /etc',
    files: { 'main.yml': play('  tasks:\n    - ansible.builtin.template: src=/etc/passwd dest=/tmp/passwd\n') },
    code: 'check_controller_file',
  },
  {
    name: 'copy src outside the folder',
    files: { 'main.yml': play('  tasks:\n    - copy:\n        src: ../../SECRET_FILE\n        dest: /tmp/s\n') },
    code: 'check_controller_file',
  },
  {
    name: 'include_vars from outside',
    files: { 'main.yml': play('  tasks:\n    - include_vars: SECRET_FILE\n') },
    code: 'check_vars_outside',
  },
  {
    name: 'vars_files from outside',
    files: { 'main.yml': play('  vars_files:\n    - ../outside.yml\n  tasks:\n    - shell: "true"\n') },
    code: 'check_vars_outside',
  },
  {
    name: 'Python internals in a template',
    files: { 'main.yml': play(`  tasks:\n    - debug:\n        msg: "{{ ''.__class__.__mro__ }}"\n`) },
    code: 'check_python_internals',
  },
  {
    name: 'Python internals reached with attr by name and a glued dunder',
    files: {
      'main.yml': play(
        `  tasks:\n    - debug:\n        msg: "{{ [''] | map('attr', '_' ~ '_class_' ~ '_') | list }}"\n`,
      ),
    },
    code: 'check_python_internals',
  },
  {
    name: "reading the account's password",
    files: { 'main.yml': play('  tasks:\n    - debug:\n        msg: "{{ ansible_password }}"\n') },
    code: 'check_secret_var',
  },
  {
    name: 'an ansible.cfg in the folder',
    files: { 'main.yml': play('  tasks:\n    - shell: "true"\n'), 'ansible.cfg': '[defaults]\nlibrary = /tmp\n' },
    code: 'check_plugin_dir',
  },
  {
    name: 'a library/ of custom modules',
    files: {
      'main.yml': play('  tasks:\n    - evil: {}\n'),
      'library/evil.py': 'import os\nos.system("touch MARKER")\n',
    },
    code: 'check_plugin_dir',
  },
  {
    name: 'filter_plugins/ in a role',
    files: {
      'main.yml': play('  roles: [web]\n'),
      'roles/web/tasks/main.yml': '- shell: "true"\n',
      'roles/web/filter_plugins/f.py': 'import os\nos.system("touch MARKER")\n',
    },
    code: 'check_plugin_dir',
  },
];

describe('the first wall: the playbook check', () => {
  for (const escape of ESCAPES)
    it(`refuses ${escape.name}, and nothing runs`, async () => {
      const m = marker();
      const files = Object.fromEntries(
        Object.entries(escape.files).map(([k, v]) => [
          k,
          v.replaceAll('MARKER', m).replaceAll('SECRET_FILE', secretFile),
        ]),
      );
      const dir = playbookFolder(files);
      folders.push(dir);
      const verdict = await checkPlaybook(dir);
      expect(verdict.ok ? 'ok' : verdict.finding.code).toBe(escape.code);
      const host = sshdHost(sshd);
      const { plan: p, lines } = plan([host], { kind: 'playbook', dir });
      const [r] = await executePlan(p, { dataDir, check: true });
      expect(r).toMatchObject({
        status: 'failed',
        reason: expect.stringContaining('The playbook was refused before it ran'),
      });
      expect(lines.get(host.assetId)!.join('\n')).not.toContain(SECRET);
      expect(fs.existsSync(m)).toBe(false);
    });

  it('refuses a symbolic link in the folder', async () => {
    const dir = playbookFolder({ 'main.yml': play('  tasks:\n    - shell: "true"\n') });
    folders.push(dir);
    fs.symlinkSync(secretFile, path.join(dir, 'vars.yml'));
    const verdict = await checkPlaybook(dir);
    expect(verdict.ok ? 'ok' : verdict.finding.code).toBe('check_symlink');
  });

  it('lets an ordinary playbook with roles, templates, includes and loops through', async () => {
    const dir = playbookFolder({
      'main.yml': play(
        '  vars_files: [vars/common.yml]\n  roles: [web]\n  tasks:\n    - include_tasks: tasks/extra.yml\n    - debug: msg={{ item }}\n      with_items: [1, 2]\n',
      ),
      'vars/common.yml': 'greeting: hello\n',
      'tasks/extra.yml': '- ansible.builtin.template:\n    src: templates/motd.j2\n    dest: /tmp/motd\n',
      'templates/motd.j2': '{{ greeting }} {{ ansible_host }}\n',
      'roles/web/tasks/main.yml': '- copy: src=index.html dest=/tmp/index.html\n',
      'roles/web/files/index.html': '<p>__main__ is fine outside templates</p>\n',
    });
    folders.push(dir);
    expect(await checkPlaybook(dir)).toEqual({ ok: true });
  });
});

describe('job variables', () => {
  it('refuses a variable that would steer Ansible (ansible_connection: local as an extra var), and nothing runs', async () => {
    const m = marker();
    const host = sshdHost(sshd);
    const steering: Record<string, string>[] = [
      { ansible_connection: 'local' },
      { ANSIBLE_HOST: '127.0.0.1' },
      { hostvars: 'x' },
    ];
    for (const variables of steering) {
      const { plan: p } = plan([host], { kind: 'module', module: 'shell', args: `touch ${m}` }, { variables });
      const [r] = await executePlan(p, { dataDir, check: true });
      expect(r).toMatchObject({ status: 'failed', reason: expect.stringContaining('reserved by Ansible') });
    }
    expect(fs.existsSync(m)).toBe(false);
  });
});

describe('the second wall: isolation', () => {
  it('keeps Gatehouse’s data, environment and /tmp out of reach of a local task that got past the check', async () => {
    const iso = chooseIsolation();
    expect(iso.ok).toBe(true);
    const m = marker();
    process.env.GH_WALL_SECRET = SECRET;
    const dir = playbookFolder({
      'main.yml': play(
        [
          // Play vars outrank the inventory's `ansible_connection: ssh` (a play's `connection:` does not).
          '  vars:',
          '    ansible_connection: local',
          // The runner user's home is /nonexistent: Ansible's own temporary files go to its /tmp.
          '    ansible_remote_tmp: /tmp/.ansible-remote',
          '  tasks:',
          `    - shell: cat ${secretFile}`,
          '      ignore_errors: true',
          `    - shell: cat /proc/${process.pid}/environ`,
          '      ignore_errors: true',
          '    - shell: env; id -un',
          `    - shell: touch ${m}`,
          '',
        ].join('\n'),
      ),
    });
    folders.push(dir);
    try {
      const host = sshdHost(sshd);
      const { plan: p, lines } = plan([host], { kind: 'playbook', dir });
      await executePlan(p, { dataDir, check: false });
      const out = lines.get(host.assetId)!.join('\n');
      expect(out).toMatch(new RegExp(`cat: ${secretFile}: (Permission denied|No such file or directory)`));
      expect(out).toMatch(/environ: (Permission denied|No such file or directory)/);
      expect(out).toContain('gatehouse-runner');
      expect(out).not.toContain(SECRET);
      expect(out).not.toMatch(/DATABASE_URL|REDIS_URL|GATEHOUSE_/);
      if (iso.ok && iso.isolation.bwrap) expect(fs.existsSync(m)).toBe(false);
      expect(fs.statSync(dataDir).mode & 0o077).toBe(0);
    } finally {
      delete process.env.GH_WALL_SECRET;
      fs.rmSync(m, { force: true });
    }
  });
});
