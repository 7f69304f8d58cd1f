import { Button, Dropdown, Space } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ResourceObject } from './types.ts';

/** One row action: shown when `has`, clickable when `can` (`ActionsFormatter`). */
export interface RowAction {
  name: string;
  /** i18n key. */
  title: string;
  danger?: boolean;
  has: boolean;
  can: boolean;
  order: number;
  onClick(row: ResourceObject): void;
}

/** Two actions or fewer are buttons; otherwise the first is a button and the rest go under "More". */
export function RowActions({ row, actions }: { row: ResourceObject; actions: RowAction[] }) {
  const { t } = useTranslation();
  const shown = actions.filter((a) => a.has).sort((a, b) => a.order - b.order);
  const button = (a: RowAction) => (
    <Button
      key={a.name}
      size="small"
      type={a.danger ? 'default' : 'primary'}
      danger={a.danger}
      ghost={!a.danger}
      disabled={!a.can}
      onClick={() => a.onClick(row)}
      data-action={a.name}
    >
      {t(a.title)}
    </Button>
  );
  if (shown.length <= 2) return <Space size={4}>{shown.map(button)}</Space>;
  const [first, ...rest] = shown;
  return (
    <Space size={4}>
      {button(first!)}
      <Dropdown
        trigger={['click']}
        menu={{
          items: rest.map((a) => ({ key: a.name, label: t(a.title), danger: a.danger, disabled: !a.can })),
          onClick: ({ key }) => rest.find((a) => a.name === key)?.onClick(row),
        }}
      >
        <Button size="small" data-action="more">
          {t('resource.more')} <DownOutlined />
        </Button>
      </Dropdown>
    </Space>
  );
}
