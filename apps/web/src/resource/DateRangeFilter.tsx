import dayjs from 'dayjs';
import { DatePicker } from 'antd';
import { useTranslation } from 'react-i18next';
import { DATE_RANGE_SHORTCUTS, lastDays, type DateRange } from './dateRange.ts';

/** The list's date range: times 00:00:01–23:59:59, not clearable, shortcuts 1–365 days. */
export function DateRangeFilter({ value, onChange }: { value: DateRange; onChange(range: DateRange): void }) {
  const { t } = useTranslation();
  return (
    <DatePicker.RangePicker
      value={value}
      allowClear={false}
      showTime={{ defaultOpenValue: [dayjs().hour(0).minute(0).second(1), dayjs().hour(23).minute(59).second(59)] }}
      format="YYYY-MM-DD HH:mm:ss"
      presets={DATE_RANGE_SHORTCUTS.map((days) => ({
        label: t('resource.date.lastDays', { count: days }),
        value: lastDays(days),
      }))}
      onChange={(range) => {
        if (range?.[0] && range[1]) onChange([range[0], range[1]]);
      }}
      data-testid="date-range"
    />
  );
}
