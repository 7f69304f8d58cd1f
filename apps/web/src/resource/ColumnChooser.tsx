import { useState } from 'react';
import { Button, Checkbox, Col, Modal, Row } from 'antd';
import { useTranslation } from 'react-i18next';

export interface ColumnChoice {
  key: string;
  label: string;
}

export interface ColumnChooserProps {
  open: boolean;
  columns: ColumnChoice[];
  shown: string[];
  /** Columns that stay shown (default `actions` and `id`). */
  locked: string[];
  onSave(columns: string[]): void;
  onRestore(): void;
  onClose(): void;
}

/** A grid of column checkboxes; locked columns cannot be unchecked; "restore default" forgets the choice. */
export function ColumnChooser({ open, columns, shown, locked, onSave, onRestore, onClose }: ColumnChooserProps) {
  const { t } = useTranslation();
  const [checked, setChecked] = useState<string[]>(shown);
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setChecked(shown);
  }
  return (
    <Modal
      open={open}
      title={t('resource.columns.title')}
      onCancel={onClose}
      width={640}
      footer={[
        <Button
          key="restore"
          onClick={() => {
            onRestore();
            onClose();
          }}
        >
          {t('resource.columns.restore')}
        </Button>,
        <Button key="cancel" onClick={onClose}>
          {t('resource.cancel')}
        </Button>,
        <Button
          key="ok"
          type="primary"
          onClick={() => {
            onSave(columns.map((c) => c.key).filter((k) => checked.includes(k) || locked.includes(k)));
            onClose();
          }}
        >
          {t('resource.ok')}
        </Button>,
      ]}
    >
      <Checkbox.Group value={checked} onChange={(v) => setChecked(v as string[])} style={{ width: '100%' }}>
        <Row gutter={[8, 8]}>
          {columns.map((c) => (
            <Col span={8} key={c.key}>
              <Checkbox value={c.key} disabled={locked.includes(c.key)}>
                {c.label}
              </Checkbox>
            </Col>
          ))}
        </Row>
      </Checkbox.Group>
    </Modal>
  );
}
