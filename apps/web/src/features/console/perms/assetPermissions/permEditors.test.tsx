import '../../../../resource/testing/setup.ts';
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Form } from 'antd';
import type { ReactNode } from 'react';
import { AccountsField } from './AccountsField.tsx';
import { ActionsField } from './ActionsField.tsx';
import { actionNames, allActions } from './permActions.ts';

vi.mock('../../../../lib/http.ts', async (orig) =>
  (await import('../../../../resource/testing/fakeHttp.ts')).fakeHttpModule(await orig()),
);

const inForm = (ui: ReactNode) => (
  <QueryClientProvider client={new QueryClient()}>
    <Form>{ui}</Form>
  </QueryClientProvider>
);

describe('asset permission editors', () => {
  it('reads actions as the server sends them ({value, label}), as names, or as "all"', () => {
    expect(actionNames([{ value: 'connect', label: 'Connect' }, { value: 'copy' }])).toEqual(['connect', 'copy']);
    expect(actionNames('all')).toHaveLength(6);
    expect(allActions(['connect', 'upload', 'download', 'copy', 'paste', 'delete'])).toBe(true);
    expect(allActions(['connect'])).toBe(false);
  });

  it('the actions tree checks a whole group at once and sends only action names', async () => {
    const onChange = vi.fn();
    render(inForm(<ActionsField value={['connect']} onChange={onChange} />));
    await userEvent.click(screen.getByText('Clipboard'));
    // Clicking a title does not check it; the group's checkbox does.
    const box = screen
      .getByTestId('perm-action-clipboard')
      .closest('.ant-tree-treenode')!
      .querySelector('.ant-tree-checkbox')!;
    await userEvent.click(box);
    expect(onChange).toHaveBeenLastCalledWith(['connect', 'copy', 'paste']);
  });

  it('the accounts field opens the specified part with @SPEC (a form-only switch) and keeps usernames and templates under it', async () => {
    const onChange = vi.fn();
    const { rerender } = render(inForm(<AccountsField value={['@ALL']} onChange={onChange} />));
    await userEvent.click(screen.getByText('Specified accounts'));
    expect(onChange).toHaveBeenLastCalledWith(['@ALL', '@SPEC']);
    rerender(inForm(<AccountsField value={['@ALL', 'root', '%tpl-1']} onChange={onChange} />));
    // Usernames and templates keep "specified" checked; unchecking it drops them.
    expect((screen.getByRole('checkbox', { name: 'Specified accounts' }) as HTMLInputElement).checked).toBe(true);
    await userEvent.click(screen.getByText('Specified accounts'));
    expect(onChange).toHaveBeenLastCalledWith(['@ALL']);
  });
});
