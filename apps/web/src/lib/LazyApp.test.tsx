import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App, ConfigProvider } from 'antd';
import { LazyApp, useFeedback } from './LazyApp.tsx';

function Buttons() {
  const { message, modal } = useFeedback();
  const legacy = App.useApp();
  return (
    <>
      <button onClick={() => void message.success('Saved')}>save</button>
      <button onClick={() => modal.confirm({ title: 'Delete it?', content: 'For good' })}>delete</button>
      <button onClick={() => void legacy.message.info('Through App.useApp')}>legacy</button>
    </>
  );
}

// The first call loads antd's message/modal code (a dynamic import), which takes a while on a busy machine.
const slow = { timeout: 20_000 };

describe('LazyApp', () => {
  it('shows a message and a confirm asked for before their code has loaded, also through App.useApp()', async () => {
    const { unmount } = render(
      <ConfigProvider>
        <LazyApp>
          <Buttons />
        </LazyApp>
      </ConfigProvider>,
    );
    expect(document.querySelector('.ant-app')).not.toBeNull();
    await userEvent.click(screen.getByText('save'));
    expect(await screen.findByText('Saved', {}, slow)).toBeTruthy();
    await userEvent.click(screen.getByText('delete'));
    expect((await screen.findAllByText('Delete it?', {}, slow)).length).toBeGreaterThan(0);
    await userEvent.click(screen.getByText('legacy'));
    expect(await screen.findByText('Through App.useApp', {}, slow)).toBeTruthy();
    // Close the messages and the dialog while the page still exists: their timers and animations
    // would otherwise run React after the test environment is gone (an uncaught error on a busy machine).
    unmount();
    await waitFor(() => expect(document.querySelector('.ant-modal, .ant-message-notice')).toBeNull(), slow);
  }, 60_000);
});
