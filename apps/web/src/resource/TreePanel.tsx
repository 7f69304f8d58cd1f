import type { ReactNode } from 'react';
import { Alert, Button, Empty, Input, Spin, Tooltip } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import styles from './TreePanel.module.css';

/**
 * The frame of a searchable tree beside a page (the web terminal's asset tree, the quick job's
 * targets): a title with a refresh button, a search box, the error, a spinner while nothing is
 * loaded, an empty state, and the tree itself as `children`.
 */
export function TreePanel(p: {
  className?: string;
  testId: string;
  title: string;
  refreshLabel: string;
  onRefresh(): void;
  searchPlaceholder: string;
  searchTestId: string;
  onSearch(text: string): void;
  error?: string;
  loading: boolean;
  empty: boolean;
  emptyText: string;
  children: ReactNode;
}) {
  return (
    <div className={p.className} data-testid={p.testId}>
      <div className={styles.head}>
        <span>{p.title}</span>
        <Tooltip title={p.refreshLabel}>
          <Button
            size="small"
            type="text"
            icon={<ReloadOutlined />}
            aria-label={p.refreshLabel}
            onClick={p.onRefresh}
          />
        </Tooltip>
      </div>
      <Input.Search
        size="small"
        allowClear
        placeholder={p.searchPlaceholder}
        onSearch={p.onSearch}
        data-testid={p.searchTestId}
      />
      {p.error ? <Alert type="error" showIcon title={p.error} /> : null}
      {p.loading ? (
        <Spin className={styles.spin} />
      ) : p.empty ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={p.emptyText} />
      ) : (
        p.children
      )}
    </div>
  );
}
