import { describe, expect, it } from 'vitest';
import { addTag, filterOptions, queryToTags, searchTag, tagsToQuery } from './searchTags.ts';
import { usersMeta } from './testing/fixtures.ts';

const options = filterOptions(usersMeta.actions!.GET!, ['Yes', 'No']);

describe('search tags', () => {
  it('offer the fields marked filter, with choices and Yes/No as values', () => {
    expect(options.map((o) => o.value)).toEqual(['name', 'username', 'email', 'source', 'is_active']);
    expect(options.find((o) => o.value === 'source')!.children).toEqual([
      { value: 'local', label: 'Local' },
      { value: 'ldap', label: 'LDAP' },
    ]);
    expect(options.find((o) => o.value === 'is_active')!.children).toEqual([
      { value: 'true', label: 'Yes' },
      { value: 'false', label: 'No' },
    ]);
  });

  it('are trimmed, and empty or repeated ones are ignored; a field keeps one value', () => {
    let tags = addTag([], searchTag('  alice '));
    tags = addTag(tags, searchTag('   '));
    tags = addTag(tags, searchTag('alice'));
    tags = addTag(tags, searchTag('bob'));
    tags = addTag(tags, { key: 'source', label: 'Source', value: 'local', valueLabel: 'Local' });
    tags = addTag(tags, { key: 'source', label: 'Source', value: 'ldap', valueLabel: 'LDAP' });
    expect(tags.map((t) => `${t.key}=${t.value}`)).toEqual(['search=alice', 'search=bob', 'source=ldap']);
    expect(tagsToQuery(tags)).toEqual({ search: 'alice,bob', source: 'ldap' });
  });

  it('come back from an address query with the labels of their values', () => {
    const tags = queryToTags(new URLSearchParams('search=a,b&source=ldap&order=-name&oid=x'), options);
    expect(tags.map((t) => [t.key, t.value, t.valueLabel])).toEqual([
      ['search', 'a', 'a'],
      ['search', 'b', 'b'],
      ['source', 'ldap', 'LDAP'],
    ]);
  });
});
