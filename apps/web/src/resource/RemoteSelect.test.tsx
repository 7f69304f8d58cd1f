import './testing/setup.ts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { callsTo, on, resetHttp } from './testing/fakeHttp.ts';
import { RemoteSelect } from './RemoteSelect.tsx';

vi.mock('../lib/http.ts', async (orig) => (await import('./testing/fakeHttp.ts')).fakeHttpModule(await orig()));

const URL = '/api/v1/perms/users/self/assets/';
const show = (value: string[], seed = [] as { value: string; label: string }[]) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RemoteSelect url={URL} multiple value={value} seed={seed} />
    </QueryClientProvider>,
  );

beforeEach(() => {
  resetHttp();
  on('GET', URL, (req: { query: URLSearchParams }) => {
    const ids = req.query.get('ids')?.split(',') ?? [];
    const all = [
      { id: 'a1', name: 'web-01' },
      { id: 'a2', name: 'db-01' },
    ];
    return { count: 2, results: ids.length ? all.filter((a) => ids.includes(a.id)) : [] };
  });
});

describe('the remote select', () => {
  it('names chosen ids the seed does not know with one ?ids= request', async () => {
    show(['a2', 'a1']);
    await waitFor(() => expect(screen.getByText('db-01')).toBeTruthy());
    expect(screen.getByText('web-01')).toBeTruthy();
    const asked = callsTo('GET', URL).filter((c) => c.query.get('ids'));
    expect(asked.map((c) => c.query.get('ids'))).toEqual(['a1,a2']);
  });

  it('asks nothing more when the seed names every chosen id', async () => {
    show(['a1'], [{ value: 'a1', label: 'web-01 (seed)' }]);
    await screen.findByText('web-01 (seed)');
    expect(callsTo('GET', URL).filter((c) => c.query.get('ids'))).toHaveLength(0);
  });
});
