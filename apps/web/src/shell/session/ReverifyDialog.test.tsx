import '../../resource/testing/setup.ts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { ReverifyDialog } from './ReverifyDialog.tsx';
import { useReverifyStore } from './reverifyStore.ts';
import { callsTo, fail, on, resetHttp } from '../../resource/testing/fakeHttp.ts';

vi.mock('../../lib/http.ts', async (orig) =>
  (await import('../../resource/testing/fakeHttp.ts')).fakeHttpModule(await orig()),
);

const CONFIRM = '/api/v1/authentication/confirm/';
const mount = () =>
  render(
    <App>
      <ReverifyDialog />
    </App>,
  );

beforeEach(() => {
  resetHttp();
  useReverifyStore.setState({ type: undefined, waiting: [] });
});

describe('the re-verification dialog', () => {
  it('asks for an MFA code of 6 digits, offers SMS with a 60 s countdown, and answers once confirmed', async () => {
    const user = userEvent.setup({ delay: null });
    on('GET', CONFIRM, {
      confirm_type: 'mfa',
      content: [
        { name: 'otp', display_name: 'OTP', placeholder: 'OTP code', disabled: false },
        { name: 'sms', display_name: 'SMS', placeholder: 'SMS code', disabled: false },
      ],
    });
    on('POST', '/api/v1/authentication/mfa/select/', { code: 'ok' });
    on('POST', CONFIRM, (req: { body: { secret_key: string } }) =>
      req.body.secret_key === '123456' ? 'ok' : fail(400, { error: 'MFA code invalid' }),
    );
    mount();
    let answer!: Promise<boolean>;
    act(() => {
      answer = useReverifyStore.getState().ask('mfa');
    });
    const input = await screen.findByTestId('reverify-secret');
    expect(callsTo('GET', CONFIRM)[0]!.query.get('confirm_type')).toBe('mfa');

    await user.type(input, '123');
    await user.click(screen.getByTestId('reverify-submit'));
    expect(await screen.findByText('MFA Error, please check')).toBeTruthy();
    expect(callsTo('POST', CONFIRM)).toHaveLength(0);

    await user.click(screen.getByRole('radio', { name: 'SMS' }));
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    const resend = await screen.findByRole('button', { name: /Resend in 60 s/ });
    expect((resend as HTMLButtonElement).disabled).toBe(true);
    expect(callsTo('POST', '/api/v1/authentication/mfa/select/')[0]!.body).toEqual({ type: 'sms' });

    await user.type(screen.getByTestId('reverify-secret'), '654321');
    await user.click(screen.getByTestId('reverify-submit'));
    expect(await screen.findByText('MFA code invalid')).toBeTruthy();
    await user.clear(screen.getByTestId('reverify-secret'));
    await user.type(screen.getByTestId('reverify-secret'), '123456');
    await user.click(screen.getByTestId('reverify-submit'));
    expect(await answer).toBe(true);
    expect(callsTo('POST', CONFIRM).at(-1)!.body).toEqual({
      confirm_type: 'mfa',
      mfa_type: 'sms',
      secret_key: '123456',
    });
  });

  it('confirms a recent sign-in without asking, and offers Re-login when it is too old', async () => {
    on('GET', CONFIRM, { confirm_type: 'relogin', content: '' });
    on('POST', CONFIRM, 'ok');
    mount();
    let answer!: Promise<boolean>;
    act(() => {
      answer = useReverifyStore.getState().ask('relogin');
    });
    expect(await answer).toBe(true);
    expect(callsTo('POST', CONFIRM)[0]!.body).toEqual({ confirm_type: 'relogin', secret_key: '' });

    on('POST', CONFIRM, () => fail(400, { error: 'expired' }));
    act(() => {
      answer = useReverifyStore.getState().ask('relogin');
    });
    expect(await screen.findByText('Login time has exceeded 5 minutes, please login again')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Re-login' })).toBeTruthy();
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await answer).toBe(false);
  });

  it('reports the MFA error when the confirm type cannot be fetched', async () => {
    on('GET', CONFIRM, () => fail(404, { error: 'This action require verify your MFA' }));
    mount();
    act(() => {
      void useReverifyStore.getState().ask('mfa');
    });
    await waitFor(() => expect(screen.getByText('MFA Error, please check')).toBeTruthy());
  });
});
