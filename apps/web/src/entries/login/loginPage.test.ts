import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/dom';
import userEvent from '@testing-library/user-event';
import { safeTarget } from './loginApi.ts';
import { addLoginMethod } from './loginMethods.ts';
import { mountLoginPage } from './loginPage.ts';
import { loadTexts } from './texts.ts';

/**
 * The plain-DOM login page in jsdom: required fields, the language switch, the hook for other
 * sign-in methods, and where a sign-in may lead. The server is replaced by a fetch stub here (the
 * browser tests in apps/web/e2e/signIn.e2e.test.ts and mfa.e2e.test.ts sign in against a real one).
 */
const posted: { url: string; body: Record<string, unknown> }[] = [];

beforeEach(async () => {
  posted.length = 0;
  document.cookie = 'django_language=; path=/; max-age=0';
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === 'POST') {
        posted.push({ url, body: JSON.parse(String(init.body)) as Record<string, unknown> });
        return new Response(JSON.stringify({ ok: false, error: 'password_failed', msg: 'Wrong password' }));
      }
      return new Response(JSON.stringify({ INTERFACE: { login_title: 'Bastion' } }));
    }),
  );
  await loadTexts('en');
  document.body.innerHTML = '<div id="root"></div>';
});
afterEach(() => vi.unstubAllGlobals());

describe('the login page', () => {
  it('asks for both fields before sending, then shows the server message', async () => {
    mountLoginPage(document.getElementById('root')!);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Please enter your username')).toBeTruthy();
    expect(screen.getByText('Please enter your password')).toBeTruthy();
    expect(posted).toHaveLength(0);

    await userEvent.type(screen.getByLabelText('Username'), 'admin');
    await userEvent.type(screen.getByLabelText('Password'), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.getByTestId('login-error').textContent).toBe('Wrong password'));
    expect(posted[0]).toMatchObject({ url: '/core/auth/login/', body: { username: 'admin', auto_login: false } });
    await waitFor(() => expect(document.title).toBe('Sign in - Bastion'));
  });

  it('switches to Chinese and Japanese, keeping what was typed and storing the choice', async () => {
    mountLoginPage(document.getElementById('root')!);
    await userEvent.type(screen.getByLabelText('Username'), 'erin');
    await userEvent.click(screen.getByText('中文'));
    await waitFor(() => expect(screen.getByLabelText('用户名')).toBeTruthy());
    expect((screen.getByLabelText('用户名') as HTMLInputElement).value).toBe('erin');
    expect(screen.getByRole('button', { name: '登 录' })).toBeTruthy();
    expect(document.cookie).toContain('django_language=zh-hans');
    await userEvent.click(screen.getByText('日本語'));
    await waitFor(() => expect(screen.getByLabelText('ユーザー名')).toBeTruthy());
    expect(document.documentElement.lang).toBe('ja');
  });

  it('draws the controls of other sign-in methods under the form, with the page texts', async () => {
    addLoginMethod((ctx) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = `other: ${ctx.t('submit')}`;
      b.onclick = () => ctx.showError('from the method');
      return b;
    });
    addLoginMethod(() => null);
    mountLoginPage(document.getElementById('root')!);
    await userEvent.click(screen.getByRole('button', { name: 'other: Sign in' }));
    expect(screen.getByTestId('login-error').textContent).toBe('from the method');
  });
});

describe('where a sign-in leads', () => {
  it('keeps a path of this site and refuses anything else', () => {
    expect(safeTarget('/ui/console/users/users/?a=1#x')).toBe('/ui/console/users/users/?a=1#x');
    expect(safeTarget(undefined)).toBe('/ui/');
    for (const bad of ['https://evil.example/', '//evil.example/', '/\\evil.example', 'javascript:alert(1)', 'ui/'])
      expect(safeTarget(bad)).toBe('/ui/');
  });
});
