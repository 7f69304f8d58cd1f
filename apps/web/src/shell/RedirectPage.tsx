import { Navigate, useLocation } from 'react-router';
import { redirectTarget } from './tags.ts';

/** The tags bar refreshes a page by passing through here: the page comes back mounted anew. */
export function RedirectPage() {
  const { pathname, search } = useLocation();
  return <Navigate to={redirectTarget(pathname, search)} replace />;
}
