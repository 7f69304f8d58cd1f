import { useEffect, useState } from 'react';
import { Alert, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAction } from '../../../../resource/useAction.ts';

export interface NodeNameDialogProps {
  open: boolean;
  title: string;
  initial: string;
  /** Saves the name; a rejection shows its message and keeps the dialog open. */
  onSave(value: string): Promise<void>;
  onClose(): void;
}

/** Asks for a node name (new child or rename); an empty name for a new child lets the server pick "New node N". */
export function NodeNameDialog({ open, title, initial, onSave, onClose }: NodeNameDialogProps) {
  const { t } = useTranslation();
  const [value, setValue] = useState(initial);
  const { busy, error, setError, run } = useAction({ inlineError: true });
  useEffect(() => {
    if (open) {
      setValue(initial);
      setError(null);
    }
  }, [open, initial, setError]);
  const save = async () => {
    if (await run(() => onSave(value.trim()))) onClose();
  };
  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      onOk={() => void save()}
      okButtonProps={{ loading: busy }}
      okText={t('resource.ok')}
      cancelText={t('resource.cancel')}
      destroyOnHidden
    >
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      <Input
        autoFocus
        value={value}
        placeholder={t('assetList.tree.namePlaceholder')}
        onChange={(e) => setValue(e.target.value)}
        onPressEnter={() => void save()}
        data-testid="node-name-input"
        maxLength={128}
      />
    </Modal>
  );
}
