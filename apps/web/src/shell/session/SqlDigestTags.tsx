import { useSyncExternalStore } from 'react';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { sqlDebugOn, sqlDigest, sqlLevel } from '../../lib/sqlDigest.ts';

/** Shown in development builds, or when `localStorage['gatehouse.sqlDigest']` is `1` (a developer tip). */
export const sqlDigestShown = sqlDebugOn;

const COLOR = { normal: 'default', warning: 'warning', danger: 'error' } as const;

/**
 * The SQL counters by the page title: the query count of the latest API call, and
 * the last 10 URLs with theirs in the tooltip; over 5 is a warning, over 10 danger.
 */
export function SqlDigestTags() {
  const { t } = useTranslation();
  const entries = useSyncExternalStore(sqlDigest.subscribe, sqlDigest.snapshot);
  if (!entries.length || !sqlDigestShown()) return null;
  const worst = Math.max(...entries.map((e) => e.count));
  const list = (
    <div data-testid="sql-digest-list">
      {entries.map((e) => (
        <div key={e.url} style={{ whiteSpace: 'nowrap' }}>
          <Tag color={COLOR[sqlLevel(e.count)]}>{e.count}</Tag>
          {e.url}
        </div>
      ))}
    </div>
  );
  return (
    <Tooltip title={list} placement="bottomLeft" styles={{ root: { maxWidth: 640 } }}>
      <Tag color={COLOR[sqlLevel(worst)]} data-testid="sql-digest" style={{ marginInlineStart: 8, cursor: 'default' }}>
        {t('session.sqlCount', { count: entries[0]!.count, max: worst })}
      </Tag>
    </Tooltip>
  );
}
