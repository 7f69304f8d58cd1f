import '../../resource/testing/setup.ts';
import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { sqlDigest } from '../../lib/sqlDigest.ts';
import { SqlDigestTags } from './SqlDigestTags.tsx';

describe('the SQL counters', () => {
  it('show the latest count and colour the worst of the last URLs', () => {
    sqlDigest.entries = [];
    render(<SqlDigestTags />);
    expect(screen.queryByTestId('sql-digest')).toBeNull();
    act(() => sqlDigest.record('/api/v1/a/', '4'));
    expect(screen.getByTestId('sql-digest').textContent).toBe('SQL 4 (max 4)');
    expect(screen.getByTestId('sql-digest').className).not.toMatch(/warning|error/);
    act(() => sqlDigest.record('/api/v1/b/', '8'));
    expect(screen.getByTestId('sql-digest').className).toMatch(/warning/);
    act(() => sqlDigest.record('/api/v1/c/', '11'));
    act(() => sqlDigest.record('/api/v1/d/', '2'));
    expect(screen.getByTestId('sql-digest').textContent).toBe('SQL 2 (max 11)');
    expect(screen.getByTestId('sql-digest').className).toMatch(/error/);
  });
});
