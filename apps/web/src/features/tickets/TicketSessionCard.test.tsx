import '../../resource/testing/setup.ts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { callsTo, on, resetHttp } from '../../resource/testing/fakeHttp.ts';
import { renderRoutes } from '../../resource/testing/renderRoutes.tsx';
import { TicketSessionCard } from './TicketSessionCard.tsx';
import { TICKETS_URL } from './ticketsApi.ts';

vi.mock('../../lib/http.ts', async (orig) =>
  (await import('../../resource/testing/fakeHttp.ts')).fakeHttpModule(await orig()),
);

/**
 * The session card of a command or login-asset ticket (server: tickets/sessionControlRoutes.ts,
 * whose answers the fake stands for): its reviewer gets Monitor (the monitor page naming the
 * ticket), Pause and End; anyone else only reads its state.
 */
const URL = `${TICKETS_URL}t1/session/`;
const render = (canAct: boolean) =>
  renderRoutes([{ path: '/t', element: <TicketSessionCard ticketId="t1" canAct={canAct} /> }] as RouteObject[], '/t');

beforeEach(() => {
  resetHttp();
  on('GET', URL, {
    id: 'abcdef12-0000-0000-0000-000000000000',
    user: 'u',
    asset: 'a',
    account: 'root',
    is_finished: false,
    is_locked: false,
  });
  on('POST', URL, { ok: ['abcdef12-0000-0000-0000-000000000000'] });
});

describe('the ticket session card', () => {
  it("gives the reviewer a Monitor link naming the ticket, and pauses through the ticket's route", async () => {
    render(true);
    const monitor = await screen.findByTestId('ticket-session-monitor');
    expect(monitor.getAttribute('href')).toBe('/luna/monitor/abcdef12-0000-0000-0000-000000000000?ticket_id=t1');
    expect(monitor.getAttribute('target')).toBe('_blank');
    expect(screen.getByText('Running')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(callsTo('POST', URL).map((c) => c.body)).toEqual([{ action: 'lock' }]));
  });

  it('shows the state only to someone who is not the reviewer', async () => {
    render(false);
    expect(await screen.findByText('Running')).toBeTruthy();
    expect(screen.queryByTestId('ticket-session-monitor')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
  });
});
