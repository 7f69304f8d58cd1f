import { useMemo } from 'react';
import { Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { nextRuns, parseCrontab } from '../../../lib/crontab.ts';
import styles from './ops.module.css';

/**
 * A crontab entry with its next five runs under it, computed in the browser (its time zone) as it
 * is typed; the form's rules say what is wrong with a refused entry.
 */
export function CrontabInput({ value, onChange, id }: { value?: string; onChange?(v: string): void; id?: string }) {
  const { t, i18n } = useTranslation();
  const runs = useMemo(() => {
    const p = parseCrontab(value ?? '');
    return p.ok ? nextRuns(p.cron, new Date(), 5) : undefined;
  }, [value]);
  const fmt = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <>
      <Input
        id={id}
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        placeholder="0 0 * * *"
        className={styles.code}
        spellCheck={false}
      />
      {runs && (
        <div className={styles.preview} data-testid="crontab-preview">
          {runs.length ? (
            <>
              {t('jobs.schedule.nextRuns')}
              <ol style={{ margin: 0, paddingInlineStart: 20 }}>
                {runs.map((d) => (
                  <li key={d.getTime()}>{fmt.format(d)}</li>
                ))}
              </ol>
            </>
          ) : (
            t('jobs.schedule.noRuns')
          )}
        </div>
      )}
    </>
  );
}
