import { describe, expect, it } from 'vitest';
import { ASSET_CATEGORIES, assetCategory, assetsApiPath } from './categories.ts';

describe('asset categories: one table for category, URL segment, API path and labels', () => {
  it('gives each category its own segment and route name', () => {
    expect(ASSET_CATEGORIES.map((c) => [c.value, c.segment, c.name])).toEqual([
      ['host', 'hosts', 'Host'],
      ['device', 'devices', 'Device'],
      ['database', 'databases', 'Database'],
      ['cloud', 'clouds', 'Cloud'],
      ['web', 'webs', 'Web'],
      ['gpt', 'gpts', 'GPT'],
      ['custom', 'customs', 'Custom'],
    ]);
  });

  it('derives the API collection of a category, and of every asset without one', () => {
    expect(assetsApiPath('database')).toBe('/api/v1/assets/databases/');
    expect(assetsApiPath()).toBe('/api/v1/assets/assets/');
  });

  it('treats an unknown category as a host', () => {
    expect(assetCategory('nonsense').value).toBe('host');
    expect(assetsApiPath('nonsense')).toBe('/api/v1/assets/hosts/');
  });
});
