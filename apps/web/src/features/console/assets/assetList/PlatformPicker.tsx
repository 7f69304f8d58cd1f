import { useMemo, useState } from 'react';
import { Alert, Button, Divider, Empty, Input, Modal, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../../../../lib/http.ts';
import { errorMessage } from '../../../../resource/errorMessage.ts';
import type { Page } from '../../../../resource/types.ts';
import { pushRecentPlatform, readRecentPlatforms, type RecentPlatform } from './recentPlatforms.ts';
import styles from './assetList.module.css';

interface Platform {
  id: number;
  name: string;
  category: { value: string; label: string } | string;
}
interface Category {
  value: string;
  label: string;
}

export interface PlatformPickerProps {
  open: boolean;
  /** Only this category's platforms (a category tab); all otherwise. */
  category?: string;
  onPick(p: RecentPlatform): void;
  onClose(): void;
}

const catOf = (p: Platform) => (typeof p.category === 'string' ? p.category : p.category.value);

/** "Create" on the asset list: platforms grouped by category, recent picks first. */
export function PlatformPicker({ open, category, onPick, onClose }: PlatformPickerProps) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState('');
  const platforms = useQuery({
    queryKey: ['asset-platforms-all'],
    queryFn: async () => {
      const r = await http.get<Page<Platform> | Platform[]>('/api/v1/assets/platforms/', {
        params: { limit: '1000', offset: '0' },
      });
      return Array.isArray(r) ? r : r.results;
    },
    enabled: open,
  });
  const categories = useQuery({
    queryKey: ['asset-categories'],
    queryFn: () => http.get<Category[]>('/api/v1/assets/categories/'),
    enabled: open,
  });
  const recent = useMemo(() => (open ? readRecentPlatforms() : []), [open]);
  const shown = (platforms.data ?? []).filter(
    (p) => (!category || catOf(p) === category) && p.name.toLowerCase().includes(filter.trim().toLowerCase()),
  );
  const pick = (p: Platform | RecentPlatform) => {
    const r = { id: p.id, name: p.name, category: typeof p.category === 'string' ? p.category : p.category.value };
    pushRecentPlatform(r);
    onPick(r);
  };
  const groups = (categories.data ?? [])
    .map((c) => ({ ...c, items: shown.filter((p) => catOf(p) === c.value) }))
    .filter((g) => g.items.length);
  const recentShown = recent.filter((r) => !category || r.category === category);

  return (
    <Modal open={open} title={t('assetList.picker.title')} onCancel={onClose} footer={null} width={760} destroyOnHidden>
      <Input.Search
        allowClear
        placeholder={t('assetList.picker.search')}
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        style={{ marginBottom: 12 }}
        data-testid="platform-filter"
      />
      {(platforms.error ?? categories.error) && (
        <Alert type="error" showIcon title={errorMessage(platforms.error ?? categories.error, t)} />
      )}
      {(platforms.isPending || categories.isPending) && <Spin />}
      {recentShown.length > 0 && !filter && (
        <>
          <Typography.Text type="secondary">{t('assetList.picker.recent')}</Typography.Text>
          <div className={styles.platforms} data-testid="recent-platforms">
            {recentShown.map((r) => (
              <Button key={`r${r.id}`} onClick={() => pick(r)}>
                {r.name}
              </Button>
            ))}
          </div>
          <Divider style={{ margin: '12px 0' }} />
        </>
      )}
      {groups.map((g) => (
        <div key={g.value} data-testid={`platform-group-${g.value}`}>
          <Typography.Text strong>{g.label}</Typography.Text>
          <div className={styles.platforms}>
            {g.items.map((p) => (
              <Button key={p.id} onClick={() => pick(p)} data-testid="platform-option">
                {p.name}
              </Button>
            ))}
          </div>
        </div>
      ))}
      {platforms.isSuccess && categories.isSuccess && !groups.length && <Empty />}
    </Modal>
  );
}
