import '../../../../resource/testing/setup.ts';
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { RulesField } from './RulesField.tsx';
import { SelectorField, USER_ATTRS } from './SelectorField.tsx';
import { WeekGrid } from './WeekGrid.tsx';

vi.mock('../../../../lib/http.ts', async (orig) =>
  (await import('../../../../resource/testing/fakeHttp.ts')).fakeHttpModule(await orig()),
);

const withQuery = (ui: ReactNode) => <QueryClientProvider client={new QueryClient()}>{ui}</QueryClientProvider>;

/** The rule editors hand the form JSON text (an object would fail the form's required rule). */
describe('access-control rule editors', () => {
  it('the selector switches to attribute rules and sends them as JSON text', async () => {
    const onChange = vi.fn();
    render(
      withQuery(
        <SelectorField url="/api/v1/users/users/" attrs={USER_ATTRS} value='{"type":"all"}' onChange={onChange} />,
      ),
    );
    await userEvent.click(screen.getByText('By attributes'));
    expect(onChange).toHaveBeenLastCalledWith(
      JSON.stringify({ type: 'attrs', attrs: [{ name: 'name', match: 'exact', value: '' }] }),
    );
  });

  it('the selector edits the value of an attribute rule', async () => {
    const onChange = vi.fn();
    const value = JSON.stringify({ type: 'attrs', attrs: [{ name: 'username', match: 'exact', value: '' }] });
    render(
      withQuery(<SelectorField url="/api/v1/users/users/" attrs={USER_ATTRS} value={value} onChange={onChange} />),
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'Value' }), { target: { value: 'alice' } });
    expect(JSON.parse(onChange.mock.lastCall![0] as string)).toEqual({
      type: 'attrs',
      attrs: [{ name: 'username', match: 'exact', value: 'alice' }],
    });
  });

  it('the rules field splits the IP group by lines and commas', () => {
    const onChange = vi.fn();
    render(<RulesField value={JSON.stringify({ ip_group: ['*'], time_period: [] })} onChange={onChange} />);
    fireEvent.change(screen.getByTestId('ip-group'), { target: { value: '10.0.0.0/8, ::1\n 192.168.1.1-20 \n' } });
    expect(JSON.parse(onChange.mock.lastCall![0] as string)).toEqual({
      ip_group: ['10.0.0.0/8', '::1', '192.168.1.1-20'],
      time_period: [],
    });
  });

  it('the week grid paints the rectangle of a drag and reports each day', () => {
    const onChange = vi.fn();
    render(<WeekGrid value={[]} onChange={onChange} />);
    fireEvent.mouseDown(screen.getByTestId('cell-1-9'));
    fireEvent.mouseEnter(screen.getByTestId('cell-2-11'));
    fireEvent.mouseUp(screen.getByTestId('cell-2-11'));
    const periods = onChange.mock.lastCall![0] as { id: number; value: string }[];
    expect(periods.map((p) => p.value)).toEqual(['', '09:00~12:00', '09:00~12:00', '', '', '', '']);
  });
});
