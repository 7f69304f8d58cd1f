import { Navigate, useLocation, useParams } from 'react-router';
import { pathOfRouteName } from '../app/routeRegistry.ts';
import { PREPARED_VIEWS } from '../app/viewRoutes.ts';

/** /terminal/sessions/{id} goes to the SessionDetail route with the same params and query. */
export function SessionDetailRedirect() {
  const params = useParams();
  const { search } = useLocation();
  const target = pathOfRouteName(PREPARED_VIEWS, 'SessionDetail', params);
  return <Navigate to={target ? `${target}${search}` : '/404'} replace />;
}
