/** The tickets view's pages, one chunk loaded when the first of them opens (routes.tsx). */
export { TicketListPage } from './TicketListPage.tsx';
export { TicketDetailPage } from './TicketDetailPage.tsx';
export { RequestAssetsPage } from './RequestAssetsPage.tsx';
export { FlowEditPage, FlowListPage } from './FlowPages.tsx';
