import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import styles from './dashboard.module.css';

export { styles as dashboardStyles };

/** A titled card with an optional control on the right of its title. */
export function Panel({
  title,
  extra,
  children,
  testId,
}: {
  title: string;
  extra?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <section className={styles.panel} data-testid={testId}>
      <div className={styles.panelHead}>
        <span>{title}</span>
        {extra}
      </div>
      <div className={styles.panelBody}>{children}</div>
    </section>
  );
}

/** One counter; with `to` the card links to the list it counts. */
export function CountCard({
  title,
  value,
  to,
  danger,
  testId,
}: {
  title: string;
  value: number | undefined;
  to?: string;
  danger?: boolean;
  testId?: string;
}) {
  const body = (
    <>
      <div className={styles.countTitle}>{title}</div>
      <div className={`${styles.countValue} ${danger ? styles.danger : ''}`} data-testid={testId}>
        {value ?? '-'}
      </div>
    </>
  );
  return to ? (
    <Link className={styles.count} to={to}>
      {body}
    </Link>
  ) : (
    <div className={styles.count}>{body}</div>
  );
}

export const DAY_CHOICES = [1, 7, 30] as const;

/** Today / 7 days / 30 days, as the dashboards' range switch. */
export function DaysSwitch({ value, onChange }: { value: number; onChange(days: number): void }) {
  const { t } = useTranslation();
  return (
    <span className={styles.switch} role="group">
      {DAY_CHOICES.map((d) => (
        <button key={d} type="button" aria-pressed={value === d} onClick={() => onChange(d)}>
          {d === 1 ? t('dashboard.today') : t('dashboard.days', { count: d })}
        </button>
      ))}
    </span>
  );
}

/** A ranking: position, name, count. */
export function RankTable({
  rows,
  nameTitle,
  totalTitle,
  testId,
}: {
  rows: { name: string; total: number }[];
  nameTitle: string;
  totalTitle: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  if (!rows.length) return <div className={styles.empty}>{t('dashboard.noData')}</div>;
  return (
    <table className={styles.rank} data-testid={testId}>
      <thead>
        <tr>
          <th>#</th>
          <th>{nameTitle}</th>
          <th>{totalTitle}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={r.name}>
            <td>{i + 1}</td>
            <td>{r.name}</td>
            <td>{r.total}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
