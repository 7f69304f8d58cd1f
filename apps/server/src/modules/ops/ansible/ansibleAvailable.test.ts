import { LANGUAGES } from '@gatehouse/contract';
import { describe, expect, it } from 'vitest';
import { ansibleAvailable, ansibleMissingMessage, findExecutable } from './ansibleAvailable.ts';
import { variableNameAllowed } from './ansibleRunner.ts';

describe('whether Ansible is here', () => {
  it('finds ansible-playbook on the runner’s PATH, and nothing on an empty one', () => {
    expect(ansibleAvailable()).toBe(true);
    expect(findExecutable('ansible-playbook', '/nonexistent:/also-not')).toBeUndefined();
  });

  it('says plainly that it is missing, in every shipped language', () => {
    const texts = LANGUAGES.map((l) => ansibleMissingMessage(l));
    expect(ansibleMissingMessage('en')).toMatch(/^Ansible is not installed on this Gatehouse host/);
    expect(new Set(texts).size).toBe(LANGUAGES.length);
    for (const t of texts) expect(t).toContain('ansible-core');
  });

  it('lets plain job variables through and keeps Ansible’s own names out', () => {
    expect(['app_version', 'x', '_tmp', 'Target2'].filter(variableNameAllowed)).toHaveLength(4);
    for (const bad of ['ansible_connection', 'Ansible_Host', 'hostvars', 'omit', 'a-b', '1x', '', 'a b'])
      expect(variableNameAllowed(bad), bad).toBe(false);
  });
});
