import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { relatedId } from '../../../../resource/values.ts';

const COLOUR: Record<string, string> = { ok: 'success', err: 'error' };
const KEY: Record<string, string> = { ok: 'assets.connectivity.ok', err: 'assets.connectivity.err' };

/** `ok` Reachable, `err` Unreachable, anything else Unknown (connectivity). */
export function ConnectivityTag({ value, testId = 'asset-connectivity' }: { value: unknown; testId?: string }) {
  const { t } = useTranslation();
  const v = String(relatedId(value) ?? '-');
  return (
    <Tag color={COLOUR[v] ?? 'default'} data-testid={testId} data-value={v}>
      {t(KEY[v] ?? 'assets.connectivity.unknown')}
    </Tag>
  );
}
