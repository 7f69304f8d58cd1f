import { useState } from 'react';
import { Alert, Modal, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../../../../lib/http.ts';
import { useAction } from '../../../../resource/useAction.ts';

interface MiniAsset {
  id: string;
  name: string;
  address: string;
}

export interface AddAssetsDialogProps {
  open: boolean;
  nodeName: string;
  onSave(assetIds: string[]): Promise<void>;
  onClose(): void;
}

/** Picks assets (by name or address, through the suggestions API) to add to a node. */
export function AddAssetsDialog({ open, nodeName, onSave, onClose }: AddAssetsDialogProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<string[]>([]);
  const { busy, error, run } = useAction({ inlineError: true });
  const options = useQuery({
    queryKey: ['asset-suggestions', search],
    queryFn: () => http.get<MiniAsset[]>('/api/v1/assets/assets/suggestions/', { params: { search } }),
    enabled: open,
  });
  const save = async () => {
    if (!(await run(() => onSave(picked)))) return;
    setPicked([]);
    onClose();
  };
  return (
    <Modal
      open={open}
      title={t('assetList.tree.addAssetsTo', { name: nodeName })}
      onCancel={onClose}
      onOk={() => void save()}
      okButtonProps={{ disabled: !picked.length, loading: busy }}
      okText={t('resource.ok')}
      cancelText={t('resource.cancel')}
      destroyOnHidden
    >
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      <Select
        mode="multiple"
        showSearch={{ filterOption: false, onSearch: setSearch }}
        style={{ width: '100%' }}
        value={picked}
        onChange={setPicked}
        loading={options.isFetching}
        placeholder={t('assetList.tree.searchAssets')}
        options={(options.data ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.address})` }))}
        data-testid="add-assets-select"
      />
    </Modal>
  );
}
