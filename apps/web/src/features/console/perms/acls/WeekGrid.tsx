import { useRef, useState } from 'react';
import { Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  emptyGrid,
  fullGrid,
  gridFromPeriods,
  paint,
  periodsFromGrid,
  type DayPeriods,
  type Grid,
} from './weekGrid.ts';
import styles from './acls.module.css';

export interface WeekGridProps {
  value?: DayPeriods[];
  onChange?(value: DayPeriods[]): void;
}

/**
 * The weekly 7×24 grid of a rule's time periods (the original's WeekCronSelect): press on a cell
 * and drag to mark or clear a rectangle of hours; each day's resulting periods show beside it.
 */
export function WeekGrid({ value, onChange }: WeekGridProps) {
  const { t } = useTranslation();
  const grid = gridFromPeriods(value);
  const [drag, setDrag] = useState<{ from: [number, number]; to: [number, number]; on: boolean } | null>(null);
  const base = useRef<Grid>(grid);
  const shown = drag ? paint(base.current, drag.from, drag.to, drag.on) : grid;
  const set = (g: Grid) => onChange?.(periodsFromGrid(g));
  const finish = () => {
    if (!drag) return;
    set(paint(base.current, drag.from, drag.to, drag.on));
    setDrag(null);
  };
  return (
    <div className={styles.weekGrid} onMouseLeave={finish} onMouseUp={finish} data-testid="week-grid">
      <table>
        <thead>
          <tr>
            <th />
            {Array.from({ length: 24 }, (_, h) => (
              <th key={h} className={styles.hour}>
                {h}
              </th>
            ))}
            <th />
          </tr>
        </thead>
        <tbody>
          {shown.map((hours, d) => (
            <tr key={d}>
              <th className={styles.day}>{t(`acls.rules.day${d}`)}</th>
              {hours.map((on, h) => (
                <td
                  key={h}
                  data-testid={`cell-${d}-${h}`}
                  className={on ? styles.on : styles.off}
                  onMouseDown={(e) => {
                    e.preventDefault();
                    base.current = grid;
                    setDrag({ from: [d, h], to: [d, h], on: !grid[d]![h] });
                  }}
                  onMouseEnter={() => drag && setDrag({ ...drag, to: [d, h] })}
                />
              ))}
              <td className={styles.dayValue}>
                <Typography.Text type="secondary">
                  {periodsFromGrid(shown)[d]!.value || t('acls.rules.never')}
                </Typography.Text>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Space>
        <Button size="small" onClick={() => set(fullGrid())}>
          {t('acls.rules.selectAll')}
        </Button>
        <Button size="small" onClick={() => set(emptyGrid())}>
          {t('acls.rules.clear')}
        </Button>
      </Space>
    </div>
  );
}
