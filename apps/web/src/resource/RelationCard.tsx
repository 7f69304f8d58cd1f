import { useState, type ReactNode } from 'react';
import { Button, Card, Empty, List } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { RemoteSelect, type OptionLabel } from './RemoteSelect.tsx';
import styles from './RelationCard.module.css';

export interface RelationItem {
  id: string;
  label: ReactNode;
}

export interface RelationCardProps {
  /** i18n key of the card title. */
  title: string;
  items: RelationItem[];
  /** The list URL new items are chosen from. */
  url: string;
  optionLabel?: OptionLabel;
  disabled?: boolean;
  onAdd(ids: string[]): Promise<void>;
  onRemove(id: string): Promise<void>;
  testId?: string;
  /** i18n keys of the add button and the remove buttons' label. */
  texts: { add: string; remove: string };
}

/** A related set on a detail page (`RelationCard`): choose and add, or remove one. */
export function RelationCard({
  title,
  items,
  url,
  optionLabel,
  disabled,
  onAdd,
  onRemove,
  testId,
  texts,
}: RelationCardProps) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={t(title)} data-testid={testId}>
      {!disabled && (
        <div className={styles.picker}>
          <div>
            <RemoteSelect
              url={url}
              multiple
              value={chosen}
              optionLabel={optionLabel}
              onChange={(v) => setChosen((v as string[] | null) ?? [])}
            />
          </div>
          <Button
            type="primary"
            disabled={!chosen.length}
            loading={busy}
            onClick={() =>
              void run(async () => {
                await onAdd(chosen);
                setChosen([]);
              })
            }
          >
            {t(texts.add)}
          </Button>
        </div>
      )}
      {items.length ? (
        <List
          size="small"
          dataSource={items}
          renderItem={(item) => (
            <List.Item
              actions={
                disabled
                  ? []
                  : [
                      <Button
                        key="rm"
                        size="small"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label={t(texts.remove)}
                        disabled={busy}
                        onClick={() => void run(() => onRemove(item.id))}
                      />,
                    ]
              }
            >
              {item.label}
            </List.Item>
          )}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      )}
    </Card>
  );
}
