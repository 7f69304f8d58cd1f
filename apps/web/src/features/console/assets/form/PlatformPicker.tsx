import { useSearchParams } from 'react-router';
import type { CategoryValue } from '@gatehouse/contract';
import { RemoteSelect } from '../../../../resource/RemoteSelect.tsx';

export interface PlatformPickerProps {
  category: CategoryValue;
  value?: string | null;
  onChange?(value: string | null): void;
  disabled?: boolean;
}

/** The asset's platform; a new choice rewrites `?platform=` so the page reloads with its rules. */
export function PlatformPicker({ category, value, onChange, disabled }: PlatformPickerProps) {
  const [, setParams] = useSearchParams();
  return (
    <RemoteSelect
      url={`/api/v1/assets/platforms/?category=${category}`}
      value={value}
      disabled={disabled}
      onChange={(v) => {
        onChange?.(v as string | null);
        if (typeof v === 'string' && v) {
          setParams(
            (prev) => {
              const next = new URLSearchParams(prev);
              next.set('platform', v);
              return next;
            },
            { replace: true },
          );
        }
      }}
    />
  );
}
