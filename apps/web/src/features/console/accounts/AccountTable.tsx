import { useMemo, useState } from 'react';
import { App, Button } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { hasPermission, ROOT_ORG_ID } from '@gatehouse/contract';
import { useAppStore } from '../../../lib/appStore.ts';
import { ResourceList } from '../../../resource/ResourceList.tsx';
import { resourcePaths } from '../../../resource/resourcePaths.ts';
import { labeledChoice, type CellFormatter } from '../../../resource/formatters.tsx';
import { NodeTree } from '../assets/nodeTree/NodeTree.tsx';
import type { NodeItem } from '../assets/nodeTree/treeState.ts';
import { ConnectivityTag } from '../assets/detail/ConnectivityTag.tsx';
import styles from '../assets/assetList/assetList.module.css';
import { http } from '../../../lib/http.ts';
import { errorMessage } from '../../../resource/errorMessage.ts';
import { download } from '../../../resource/exportUrl.ts';
import { ACCOUNTS, ACCOUNT_SECRETS } from './accountApi.ts';
import { AccountDialog } from './AccountDialog.tsx';
import { InlineSecretEdit } from './InlineSecretEdit.tsx';
import { SecretHistoryDialog, ViewSecretDialog } from './SecretDialog.tsx';
import { useAccountActions, useAccountDialogs } from './useAccountActions.tsx';

const accountPaths = resourcePaths('/console/accounts/accounts');
const assetCell: CellFormatter = ({ value }) => {
  const a = value as { id?: string; name?: string } | null;
  return a?.id ? <a href={`/ui/console/assets/assets/${a.id}`}>{a.name}</a> : '-';
};
const connectivityCell: CellFormatter = ({ value }) => (
  <ConnectivityTag value={(value as { value?: string } | null)?.value ?? '-'} />
);

/**
 * The general accounts list: beside the node tree, or for one asset (its
 * Accounts tab) without it. "Add" creates on the asset, or on many assets through `bulk/`.
 */
export function AccountTable({ asset }: { asset?: { id: string; name?: string } }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { modal, message } = App.useApp();
  const orgId = useAppStore((s) => s.currentOrg?.id ?? '');
  const held = useAppStore((s) => s.perms);
  const [node, setNode] = useState<NodeItem | null>(null);
  const [adding, setAdding] = useState<'plain' | 'template' | null>(null);
  const dialogs = useAccountDialogs();
  const rowActions = useAccountActions(dialogs);
  const canAdd = hasPermission(held, 'accounts.add_account') && orgId !== ROOT_ORG_ID;
  const extraQuery = useMemo(
    (): Record<string, string> | undefined => (asset ? { asset: asset.id } : node ? { node_id: node.id } : undefined),
    [asset, node],
  );
  const canExport = hasPermission(held, 'accounts.view_accountsecret');
  // The secrets export: a warning first; the server asks for re-verification.
  const exportSecrets = () =>
    modal.confirm({
      title: t('accounts.export.title'),
      content: t('accounts.export.tip'),
      onOk: async () => {
        const href = `${ACCOUNT_SECRETS}?${new URLSearchParams({ ...(extraQuery ?? {}), format: 'csv' }).toString()}`;
        try {
          await http.raw('GET', href, { probe: true });
          download(href);
        } catch (e) {
          void message.error(errorMessage(e, t));
        }
      },
    });
  const reload = () => void queryClient.invalidateQueries({ queryKey: ['resource-list', ACCOUNTS] });
  // The inline secret edit opens in the row's secret type cell.
  const secretTypeCell: CellFormatter = (args) =>
    dialogs.inline?.id === args.row.id ? (
      <InlineSecretEdit
        row={args.row}
        onCancel={() => dialogs.setInline(null)}
        onDone={() => {
          dialogs.setInline(null);
          reload();
        }}
      />
    ) : (
      labeledChoice(args)
    );
  const list = (
    <>
      {canExport && (
        <Button
          size="small"
          style={{ marginBottom: 8, marginRight: 8 }}
          onClick={exportSecrets}
          data-testid="export-secrets"
        >
          {t('accounts.action.exportSecrets')}
        </Button>
      )}
      {canAdd && (
        <Button
          size="small"
          style={{ marginBottom: 8 }}
          onClick={() => setAdding('template')}
          data-testid="template-add"
        >
          {t('accounts.action.templateAdd')}
        </Button>
      )}
      <ResourceList
        url={ACCOUNTS}
        name={asset ? 'AssetAccountList' : 'AccountList'}
        urlQuery={!asset}
        paths={accountPaths}
        extraQuery={extraQuery}
        searchExclude={['asset']}
        columnsExclude={['spec_info', 'params', 'su_from', 'source_id']}
        columnsShow={{
          default: asset
            ? ['name', 'username', 'privileged', 'secret_type', 'connectivity', 'is_active', 'actions']
            : [
                'name',
                'username',
                'asset',
                'privileged',
                'secret_type',
                'connectivity',
                'is_active',
                'date_updated',
                'actions',
              ],
          min: ['name', 'username', 'actions'],
        }}
        columnsMeta={{
          asset: { formatter: assetCell },
          connectivity: { formatter: connectivityCell, width: 110 },
          secret_type: { formatter: secretTypeCell },
        }}
        headerActions={{ onCreate: () => setAdding('plain'), hasImport: false }}
        rowActions={rowActions}
      />
    </>
  );
  return (
    <>
      {asset ? (
        list
      ) : (
        <div className={styles.split}>
          <div className={styles.tree}>
            <NodeTree
              orgKey={orgId}
              selectedKey={node?.key}
              onSelect={setNode}
              perms={{
                inRootOrg: orgId === ROOT_ORG_ID,
                addNode: false,
                changeNode: false,
                deleteNode: false,
                changeAssets: false,
              }}
              selectedAssetIds={[]}
              showCurrent={false}
              onShowCurrentChange={() => undefined}
              onAssetsChanged={reload}
              height={Math.max(320, window.innerHeight - 250)}
            />
          </div>
          <div className={styles.table}>{list}</div>
        </div>
      )}
      <AccountDialog
        open={adding !== null || dialogs.editing !== null}
        asset={asset}
        template={adding === 'template'}
        account={dialogs.editing}
        onClose={() => {
          setAdding(null);
          dialogs.setEditing(null);
        }}
        onDone={reload}
      />
      <ViewSecretDialog account={dialogs.viewing} onClose={() => dialogs.setViewing(null)} />
      <SecretHistoryDialog account={dialogs.history} onClose={() => dialogs.setHistory(null)} />
    </>
  );
}
