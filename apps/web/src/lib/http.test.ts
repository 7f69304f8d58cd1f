import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpError, http, httpContext } from './http.ts';
import { SQL_DEBUG_STORAGE_KEY, sqlDigest } from './sqlDigest.ts';

const json = (status: number, body: unknown, sql = '3') =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'X-JMS-SQL-COUNT': sql },
  });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  window.localStorage.removeItem(SQL_DEBUG_STORAGE_KEY);
  httpContext.confirm = undefined;
  httpContext.onError = undefined;
});

describe('the HTTP client', () => {
  it('opens the re-verification for a confirm-required 400 and sends the call again once confirmed', async () => {
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(json(400, { code: 'password', detail: 'This action require confirm current user' }))
      .mockResolvedValueOnce(json(200, { ok: 1 }, '12'));
    vi.stubGlobal('fetch', fetch);
    const confirm = vi.fn().mockResolvedValue(true);
    httpContext.confirm = confirm;
    expect(await http.get('/api/v1/guarded/')).toEqual({ ok: 1 });
    expect(confirm).toHaveBeenCalledWith('password');
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(sqlDigest.snapshot()[0]).toEqual({ url: '/api/v1/guarded/', count: 12 });
  });

  it('fails with the 400 when the dialog is cancelled, and tells the error handler', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json(400, { code: 'mfa' })));
    httpContext.confirm = vi.fn().mockResolvedValue(false);
    const onError = vi.fn();
    httpContext.onError = onError;
    const err = await http.get('/api/v1/guarded/').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(400);
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('does not ask again for a call sent with noConfirm, and reads no body when probing', async () => {
    const confirm = vi.fn();
    httpContext.confirm = confirm;
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json(400, { code: 'mfa' })));
    await expect(http.get('/api/v1/guarded/', { noConfirm: true })).rejects.toBeInstanceOf(HttpError);
    expect(confirm).not.toHaveBeenCalled();
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json(200, { big: 'file' })));
    expect((await http.raw('GET', '/api/v1/users/users/?format=csv', { probe: true })).data).toBeUndefined();
  });

  it('asks for the SQL count only when the SQL digest is on (development build or localStorage flag)', async () => {
    const sent = () => {
      const fetch = vi.fn().mockResolvedValue(json(200, {}));
      vi.stubGlobal('fetch', fetch);
      return fetch;
    };
    const asked = (fetch: ReturnType<typeof vi.fn>) =>
      (fetch.mock.calls[0]![1] as { headers: Record<string, string> }).headers['X-JMS-SQL-DEBUG'];
    vi.stubEnv('DEV', false);
    let fetch = sent();
    await http.get('/api/v1/a/');
    expect(asked(fetch)).toBeUndefined();
    window.localStorage.setItem(SQL_DEBUG_STORAGE_KEY, '1');
    fetch = sent();
    await http.get('/api/v1/a/');
    expect(asked(fetch)).toBe('1');
    window.localStorage.removeItem(SQL_DEBUG_STORAGE_KEY);
    vi.stubEnv('DEV', true);
    fetch = sent();
    await http.get('/api/v1/a/');
    expect(asked(fetch)).toBe('1');
  });
});
