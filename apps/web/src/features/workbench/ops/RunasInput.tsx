import { useState } from 'react';
import { AutoComplete } from 'antd';
import { useTranslation } from 'react-i18next';
import { jobsApi } from './jobsApi.ts';
import type { Targets } from './quickJob.ts';

/** The run-as user, with the usernames most used on the targeted assets (`POST ops/username-hints/`). */
export function RunasInput({
  value,
  onChange,
  targets,
}: {
  value: string;
  onChange(v: string): void;
  targets: Targets;
}) {
  const { t } = useTranslation();
  const [options, setOptions] = useState<{ value: string; label: string }[]>([]);
  const hint = (query: string) =>
    void jobsApi
      .usernameHints({ nodes: Object.keys(targets.nodes), assets: Object.keys(targets.assets), query })
      .then((hints) =>
        setOptions(
          (Array.isArray(hints) ? hints : []).map((h) => ({ value: h.username, label: `${h.username} (${h.total})` })),
        ),
      )
      .catch(() => setOptions([]));
  return (
    <AutoComplete
      value={value}
      options={options}
      onChange={onChange}
      onSearch={hint}
      onFocus={() => hint(value)}
      placeholder={t('jobs.field.runas')}
      style={{ width: 160 }}
      aria-label={t('jobs.field.runas')}
      data-testid="quick-runas"
    />
  );
}
