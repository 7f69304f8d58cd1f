import { useParams, useSearchParams } from 'react-router';
import { ResourceDetail } from './ResourceDetail.tsx';
import { ResourceForm } from './ResourceForm.tsx';
import { ResourceList } from './ResourceList.tsx';
import type { ResourcePagesConfig } from './resourceRoute.tsx';

/**
 * The pages of a resource route (`resourceRoute.tsx`), loaded with the route: the list, form and
 * detail components are the heaviest part of the console, so they are not in its first load.
 */
export function ListPage({ cfg }: { cfg: ResourcePagesConfig }) {
  return (
    <ResourceList
      url={cfg.url}
      permissions={cfg.permissions}
      disableOrgsChange={cfg.disableOrgsChange}
      urlQuery
      {...cfg.list}
    />
  );
}

export function FormPage({ url, form }: { url: string; form: NonNullable<ResourcePagesConfig['form']> }) {
  const { id } = useParams();
  const [params] = useSearchParams();
  return <ResourceForm key={`${id ?? 'new'}:${params.get('clone_from') ?? ''}`} url={url} id={id} {...form} />;
}

export function DetailPage({ cfg }: { cfg: ResourcePagesConfig }) {
  const { id } = useParams();
  return (
    <ResourceDetail
      key={id}
      url={cfg.url}
      id={id!}
      kind={cfg.kind}
      permissions={cfg.permissions}
      disableOrgsChange={cfg.disableOrgsChange}
      {...cfg.detail}
    />
  );
}
