import { Navigate } from 'react-router';
import { ApartmentOutlined, AuditOutlined, SolutionOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../lib/routeTypes.ts';
import { lazyPage } from '../../lib/lazyPage.tsx';

/**
 * The tickets view (spec 02 "Tickets children"; needs the licence and `tickets.view_ticket`, see
 * app/views.ts): my tickets, tickets assigned to me, the asset request form, a page per ticket kind
 * and the approval flows.
 */
const view = { permissions: ['tickets.view_ticket'] };
const list = (mode: 'my' | 'assigned') =>
  lazyPage(
    () => import('./pages.tsx'),
    ({ TicketListPage }) => <TicketListPage mode={mode} />,
  );
const detail = () =>
  lazyPage(
    () => import('./pages.tsx'),
    ({ TicketDetailPage }) => <TicketDetailPage />,
  );
const detailOf = (path: string, name: string): AppRoute => ({
  path,
  ...detail(),
  handle: { title: 'tickets.route.detail', name, hidden: true, ...view },
});

export const ticketsRoute: AppRoute = {
  path: 'tickets',
  handle: { title: 'route.Tickets', switchable: true, ...view },
  children: [
    { index: true, element: <Navigate to="my-tickets" replace /> },
    {
      path: 'my-tickets',
      ...list('my'),
      handle: { title: 'tickets.route.my', name: 'MyTicketList', icon: <SolutionOutlined />, ...view },
    },
    {
      path: 'assigned-tickets',
      ...list('assigned'),
      handle: { title: 'tickets.route.assigned', name: 'AssignedTicketList', icon: <AuditOutlined />, ...view },
    },
    {
      path: 'tickets',
      handle: { title: 'tickets.route.tickets', hidden: true, ...view },
      children: [
        {
          path: 'request-host-perm/create',
          ...lazyPage(
            () => import('./pages.tsx'),
            ({ RequestAssetsPage }) => <RequestAssetsPage />,
          ),
          handle: { title: 'tickets.route.request', name: 'RequestAssetPermTicketCreate', hidden: true, ...view },
        },
        detailOf('request-host-perm/:id', 'AssetsTicketDetail'),
        detailOf('login-host-confirm/:id', 'LoginAssetTicketDetail'),
        detailOf('login-confirm/:id', 'LoginTicketDetail'),
        detailOf('command-confirm/:id', 'CommandConfirmDetail'),
        detailOf(':id', 'TicketDetail'),
      ],
    },
    {
      path: 'flow',
      handle: { title: 'tickets.route.flows', icon: <ApartmentOutlined />, permissions: ['tickets.view_ticketflow'] },
      children: [
        {
          index: true,
          ...lazyPage(
            () => import('./pages.tsx'),
            ({ FlowListPage }) => <FlowListPage />,
          ),
          handle: { title: 'tickets.route.flows', name: 'TicketFlow', permissions: ['tickets.view_ticketflow'] },
        },
        {
          path: 'create',
          ...lazyPage(
            () => import('./pages.tsx'),
            ({ FlowEditPage }) => <FlowEditPage create />,
          ),
          handle: {
            title: 'tickets.route.flowCreate',
            name: 'TicketFlowCreate',
            hidden: true,
            permissions: ['tickets.add_ticketflow'],
          },
        },
        {
          path: ':id',
          ...lazyPage(
            () => import('./pages.tsx'),
            ({ FlowEditPage }) => <FlowEditPage readOnly />,
          ),
          handle: {
            title: 'tickets.route.flow',
            name: 'TicketFlowDetail',
            hidden: true,
            permissions: ['tickets.view_ticketflow'],
          },
        },
        {
          path: ':id/update',
          ...lazyPage(
            () => import('./pages.tsx'),
            ({ FlowEditPage }) => <FlowEditPage />,
          ),
          handle: {
            title: 'tickets.route.flowUpdate',
            name: 'TicketFlowUpdate',
            hidden: true,
            permissions: ['tickets.change_ticketflow'],
          },
        },
      ],
    },
  ],
};
