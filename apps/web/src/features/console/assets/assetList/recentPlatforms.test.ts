import { beforeEach, describe, expect, it } from 'vitest';
import { createPath, pushRecentPlatform, readRecentPlatforms, RECENT_KEY } from './recentPlatforms.ts';

describe('recent platforms', () => {
  beforeEach(() => localStorage.clear());

  it('keeps the last 8 picks, newest first, each once', () => {
    for (let i = 1; i <= 10; i++) pushRecentPlatform({ id: i, name: `P${i}`, category: 'host' });
    pushRecentPlatform({ id: 5, name: 'P5', category: 'host' });
    expect(readRecentPlatforms().map((p) => p.id)).toEqual([5, 10, 9, 8, 7, 6, 4, 3]);
  });

  it('ignores broken or foreign storage content', () => {
    localStorage.setItem(RECENT_KEY, '{not json');
    expect(readRecentPlatforms()).toEqual([]);
    localStorage.setItem(RECENT_KEY, JSON.stringify([{ id: 'x' }, { id: 2, name: 'Linux', category: 'host' }, null]));
    expect(readRecentPlatforms()).toEqual([{ id: 2, name: 'Linux', category: 'host' }]);
  });

  it('builds the create page address of a category with platform and node', () => {
    expect(createPath('host', 1)).toBe('/console/assets/hosts/create?platform=1');
    expect(createPath('database', 7, 'n-1')).toBe('/console/assets/databases/create?platform=7&node=n-1');
    expect(createPath('custom', 9)).toBe('/console/assets/customs/create?platform=9');
  });
});
