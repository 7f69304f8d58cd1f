import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { http } from '../../../lib/http.ts';
import type { ResourceObject } from '../../../resource/types.ts';
import { PERMS_USERS } from '../../console/perms/grants/grantedAssets.ts';

/** One permed account of an asset as the server resolves it (virtual ones by their alias). */
export interface PermedAccount {
  id: string;
  alias: string;
  name: string;
  username: string;
  has_secret: boolean;
  actions: { value: string; label: string }[];
}

export const permedAccountsUrl = (assetId: string) => `${PERMS_USERS}/self/assets/${assetId}/accounts/`;

const accountLabel = (a: PermedAccount, t: (k: string) => string) =>
  a.alias.startsWith('@')
    ? `${t(`perms.account.${a.alias.slice(1)}`)}${a.alias === '@USER' ? ` (${a.username})` : ''}`
    : `${a.name}(${a.username})`;

/** The account of a picker entry in the web terminal's deep link: a stored account's id, else its alias. */
export const loginAccountOf = (a: PermedAccount) => (a.alias.startsWith('@') ? a.alias : a.id);

/** The web terminal (/luna/) opening the connect dialog of an asset, with the account when one is chosen. */
export function lunaConnectUrl(assetId: string, account?: string): string {
  const q = new URLSearchParams({ login_to: assetId });
  if (account) q.set('login_account', account);
  return `/luna/?${q.toString()}`;
}

/**
 * The connect part of a granted asset's row: the picker of the accounts the user may use on it
 * (loaded when opened) and the connect button (active assets only), which opens the web terminal
 * in a new tab (it asks for the account there when none is chosen).
 */
export function ConnectCell({ asset }: { asset: ResourceObject }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<string | undefined>();
  const accounts = useQuery({
    queryKey: ['permed-accounts', asset.id],
    queryFn: () => http.get<PermedAccount[]>(permedAccountsUrl(asset.id)),
    enabled: open,
    staleTime: 0,
  });
  return (
    <Space size={4} data-testid="connect-cell">
      <Select
        size="small"
        style={{ width: 200 }}
        placeholder={t('workbench.assets.pickAccount')}
        value={chosen}
        onChange={setChosen}
        onOpenChange={(o) => o && setOpen(true)}
        loading={accounts.isFetching}
        notFoundContent={accounts.isFetching ? null : t('workbench.assets.noAccounts')}
        options={(accounts.data ?? []).map((a) => ({ value: loginAccountOf(a), label: accountLabel(a, t) }))}
        data-testid="account-picker"
        aria-label={t('workbench.assets.pickAccount')}
      />
      <Button
        size="small"
        type="primary"
        data-testid="connect-button"
        // Only active assets can be connected to (the original's rule).
        disabled={asset.is_active === false}
        onClick={() => window.open(lunaConnectUrl(String(asset.id), chosen), '_blank', 'noopener')}
      >
        {t('workbench.assets.connect')}
      </Button>
    </Space>
  );
}
