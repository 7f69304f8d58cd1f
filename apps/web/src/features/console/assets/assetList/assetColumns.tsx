import { Tag, Tooltip } from 'antd';
import { CheckCircleFilled, CloseCircleFilled, QuestionCircleFilled } from '@ant-design/icons';
import type { CellFormatter } from '../../../../resource/formatters.tsx';
import styles from './assetList.module.css';

/** Connectivity `{value: ok|err|-, label}` as an icon with its label as tooltip. */
export const connectivityCell: CellFormatter = ({ value }) => {
  const v = value as { value?: string; label?: string } | string | null;
  const code = typeof v === 'string' ? v : (v?.value ?? '-');
  const label = typeof v === 'string' ? v : (v?.label ?? code);
  const icon =
    code === 'ok' ? (
      <CheckCircleFilled className={styles.ok} />
    ) : code === 'err' ? (
      <CloseCircleFilled className={styles.err} />
    ) : (
      <QuestionCircleFilled className={styles.unknown} />
    );
  return (
    <Tooltip title={label}>
      <span data-testid="connectivity" data-value={code} aria-label={label}>
        {icon}
      </span>
    </Tooltip>
  );
};

const COLORS = ['blue', 'green', 'orange', 'purple', 'cyan', 'magenta', 'gold', 'geekblue', 'volcano', 'lime'];

/** A stable colour per label name. */
export function labelColor(name: string): string {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return COLORS[h % COLORS.length]!;
}

/** Labels `[{name, value}]` as coloured `name:value` tags. */
export const labelsCell: CellFormatter = ({ value }) => {
  const list = Array.isArray(value) ? (value as { name?: string; value?: string }[]) : [];
  if (!list.length) return '-';
  return (
    <>
      {list.map((l, i) => (
        <Tag key={i} color={labelColor(l.name ?? '')}>{`${l.name ?? ''}:${l.value ?? ''}`}</Tag>
      ))}
    </>
  );
};

/** `nodes_display` (full paths) one per line. */
export const nodesDisplayCell: CellFormatter = ({ value }) => {
  const list = Array.isArray(value) ? value.map(String) : [];
  return list.length ? (
    <>
      {list.map((p) => (
        <div key={p}>{p}</div>
      ))}
    </>
  ) : (
    '-'
  );
};
