import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../../lib/appStore.ts';
import type { DetailTab } from '../../../../resource/ResourceDetail.tsx';
import { AuthorisedUsersTab } from './AuthorisedUsersTab.tsx';
import { GrantedAssetsTab } from './GrantedAssetsTab.tsx';

/** The detail tabs the asset permissions add to the user, user group and asset details. */
const lacks = (perm: string) => () => !hasPermission(useAppStore.getState().perms, perm);

export const userGrantedAssetsTab: DetailTab = {
  name: 'GrantedAssets',
  title: 'perms.grants.tab',
  hidden: lacks('perms.view_userassets'),
  render: (user) => <GrantedAssetsTab who={{ user: user.id }} />,
};

export const groupGrantedAssetsTab: DetailTab = {
  name: 'GrantedAssets',
  title: 'perms.grants.tab',
  hidden: lacks('perms.view_usergroupassets'),
  render: (group) => <GrantedAssetsTab who={{ group: group.id }} />,
};

export const assetAuthorisedUsersTab: DetailTab = {
  name: 'AuthorisedUsers',
  title: 'perms.grants.authorisedUsers',
  hidden: lacks('perms.view_assetpermission'),
  render: (asset) => <AuthorisedUsersTab asset={asset} />,
};
