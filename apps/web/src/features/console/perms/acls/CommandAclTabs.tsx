import { hasPermission } from '@gatehouse/contract';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../../../lib/appStore.ts';
import { ForbiddenPage } from '../../../../lib/ForbiddenPage.tsx';
import { ResourceList } from '../../../../resource/ResourceList.tsx';
import { resourcePaths } from '../../../../resource/resourcePaths.ts';
import { TabPage } from '../../../../resource/TabPage.tsx';
import { commandFilterAclPages, commandGroupPages } from './aclPages.tsx';

const CMD_GROUPS = '/console/perms/cmd-groups';

/** `/console/perms/cmd-acls/`: command filters with the command groups as a second tab. */
export function CommandAclTabs() {
  const { t } = useTranslation();
  const mayViewGroups = hasPermission(
    useAppStore((s) => s.perms),
    'acls.view_commandgroup',
  );
  return (
    <TabPage
      items={[
        {
          name: 'CommandFilterAclList',
          title: t('acls.route.CommandFilterAclList'),
          render: () => <ResourceList url={commandFilterAclPages.url} {...commandFilterAclPages.list} />,
        },
        {
          name: 'CommandGroupList',
          title: t('acls.route.CommandGroupList'),
          render: () =>
            mayViewGroups ? (
              <ResourceList url={commandGroupPages.url} paths={resourcePaths(CMD_GROUPS)} {...commandGroupPages.list} />
            ) : (
              <ForbiddenPage />
            ),
        },
      ]}
    />
  );
}
