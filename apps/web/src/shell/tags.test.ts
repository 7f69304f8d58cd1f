import { describe, expect, it } from 'vitest';
import {
  addTag,
  afterClose,
  closeAllTags,
  closeOtherTags,
  closeTag,
  redirectTarget,
  refreshPath,
  withAffix,
  type VisitedTag,
} from './tags.ts';

const tag = (path: string, affix = false, fullPath = path): VisitedTag => ({
  path,
  fullPath,
  title: `t${path}`,
  affix,
});
const dashboard = tag('/console/dashboard', true);
const users = tag('/console/users/users/');
const groups = tag('/console/users/groups/');
const paths = (tags: VisitedTag[]) => tags.map((t) => t.path);

describe('the tags bar', () => {
  it('adds each visited page once, keeping its latest query', () => {
    let tags = addTag([dashboard], users);
    tags = addTag(tags, tag('/console/users/users/', false, '/console/users/users/?search=a'));
    expect(paths(tags)).toEqual(['/console/dashboard', '/console/users/users/']);
    expect(tags[1]!.fullPath).toBe('/console/users/users/?search=a');
  });

  it('puts affix tags first', () => {
    expect(paths(withAffix([users], [dashboard]))).toEqual(['/console/dashboard', '/console/users/users/']);
  });

  it('never closes an affix tag', () => {
    const tags = [dashboard, users, groups];
    expect(paths(closeTag(tags, '/console/dashboard'))).toEqual(paths(tags));
    expect(paths(closeTag(tags, '/console/users/users/'))).toEqual(['/console/dashboard', '/console/users/groups/']);
    expect(paths(closeOtherTags(tags, '/console/users/groups/'))).toEqual([
      '/console/dashboard',
      '/console/users/groups/',
    ]);
    expect(paths(closeAllTags(tags))).toEqual(['/console/dashboard']);
  });

  it('moves to the last remaining tag when the active one closes, else home', () => {
    expect(afterClose([dashboard, users], '/console/users/groups/')).toBe('/console/users/users/');
    expect(afterClose([dashboard, users], '/console/users/users/')).toBeUndefined();
    expect(afterClose([], '/console/users/users/')).toBe('/');
  });

  it('refreshes through the redirect path and comes back with the query', () => {
    expect(refreshPath('/console/users/users/?search=a')).toBe('/redirect/console/users/users/?search=a');
    expect(redirectTarget('/redirect/console/users/users/', '?search=a')).toBe('/console/users/users/?search=a');
    expect(redirectTarget('/redirect', '')).toBe('/');
  });
});
