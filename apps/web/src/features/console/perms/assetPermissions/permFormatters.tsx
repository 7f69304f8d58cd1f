import { Tag } from 'antd';
import { Link } from 'react-router';
import type { CellArgs, CellFormatter } from '../../../../resource/formatters.tsx';
import { ASSET_PERMISSIONS_PATH } from './permRoute.ts';
import { actionNames, allActions, TEMPLATE_PREFIX } from './permActions.ts';

/** A count that links to the permission's detail tab holding the set (users, assets, accounts). */
export const amountLink =
  (tab: string): CellFormatter =>
  ({ row, value }) => (
    <Link to={`${ASSET_PERMISSIONS_PATH}/${row.id}?activeTab=${tab}`} data-testid={`perm-amount-${tab}`}>
      {Array.isArray(value) ? value.length : 0}
    </Link>
  );

/**
 * The actions: "All" when every one is granted, else their labels. In lists the column is `action`
 * (`actions` is the row actions' column), so the value is read from the row.
 */
export const actionsCell: CellFormatter = ({ row, field, value: raw, t }) => {
  const value = field === 'action' ? row.actions : raw;
  return actionsTags(value, t);
};

const actionsTags = (value: unknown, t: CellArgs['t']) =>
  allActions(value) ? (
    <Tag color="blue">{t('perms.action.all')}</Tag>
  ) : (
    <>
      {actionNames(value).map((a) => (
        <Tag key={a}>{t(`perms.action.${a}`)}</Tag>
      ))}
    </>
  );

/** The accounts: the virtual ones as coloured labels, usernames and templates as plain tags. */
export const accountsCell: CellFormatter = ({ value, t }) => (
  <>
    {(Array.isArray(value) ? value : []).map((raw) => {
      const v = String(raw);
      if (v.startsWith('@')) {
        return (
          <Tag key={v} color="geekblue">
            {t(`perms.account.${v.slice(1)}`, { defaultValue: v })}
          </Tag>
        );
      }
      return <Tag key={v}>{v.startsWith(TEMPLATE_PREFIX) ? t('perms.account.template') : v}</Tag>;
    })}
  </>
);
