import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, type PublicSettings } from '@gatehouse/contract';
import { prepareRoutes } from '../../../app/routeRegistry.ts';
import type { PreparedRoute } from '../../../lib/routeTypes.ts';
import { buildMenu, selectedMenuKey } from '../../../shell/menu.ts';
import { workbenchRoute } from '../routes.tsx';

const [bench] = prepareRoutes([workbenchRoute]);
const menu = (on: boolean, perms: readonly string[] = ALL_PERMISSIONS) =>
  buildMenu(bench!, {
    perms: [...perms],
    settings: { SECURITY_COMMAND_EXECUTION: on } as PublicSettings,
    licenseValid: true,
  });

describe('the job centre in the workbench menu', () => {
  it('lists quick job, jobs, templates and executions under one group; templates pages stay out', () => {
    const ops = menu(true).find((e) => e.key === '/workbench/ops');
    expect(ops?.children?.map((e) => e.key)).toEqual([
      '/workbench/ops/quick-job',
      '/workbench/ops/job',
      '/workbench/ops/templates',
      '/workbench/ops/executions',
    ]);
  });

  it('hides while SECURITY_COMMAND_EXECUTION is off', () => {
    expect(menu(false).map((e) => e.key)).not.toContain('/workbench/ops');
  });

  it('offers the quick job only with view_job, add_job and add_jobexecution', () => {
    const ops = menu(true, ['ops.view_job', 'ops.add_job', 'ops.view_jobexecution']).find(
      (e) => e.key === '/workbench/ops',
    );
    expect(ops?.children?.map((e) => e.key)).toEqual(['/workbench/ops/job', '/workbench/ops/executions']);
  });
});

const find = (routes: readonly PreparedRoute[], path: string): PreparedRoute | undefined => {
  for (const r of routes) {
    if (r.handle.resolved.fullPath === path) return r;
    const inner = r.children && find(r.children, path);
    if (inner) return inner;
  }
  return undefined;
};

describe('the template pages', () => {
  it('light up the Templates entry: command and playbook forms and the playbook workspace', () => {
    const entries = menu(true);
    for (const path of [
      '/workbench/ops/adhoc/create',
      '/workbench/ops/playbook/:id/update',
      '/workbench/ops/playbook/:id/workspace',
    ]) {
      const route = find([bench!], path);
      expect(route, path).toBeDefined();
      expect(selectedMenuKey(entries, path, route!.handle.resolved.activeMenu), path).toBe('/workbench/ops/templates');
    }
  });
});
