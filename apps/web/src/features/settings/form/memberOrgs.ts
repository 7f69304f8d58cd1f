import { useQuery } from '@tanstack/react-query';
import { ROOT_ORG_ID, SYSTEM_ORG_ID } from '@gatehouse/contract';
import { http } from '../../../lib/http.ts';

/**
 * The organisations users can be made members of, as options of a select (where directory users
 * join): every org but the global view and the system-setting org, which hold no members.
 */
export function useMemberOrgOptions() {
  const orgs = useQuery({
    queryKey: ['/api/v1/orgs/orgs/', 'choices'],
    queryFn: () => http.get<{ id: string; name: string }[]>('/api/v1/orgs/orgs/'),
  });
  const options = (Array.isArray(orgs.data) ? orgs.data : [])
    .filter((o) => o.id !== ROOT_ORG_ID && o.id !== SYSTEM_ORG_ID)
    .map((o) => ({ value: o.id, label: o.name }));
  return { options, loading: orgs.isPending };
}
