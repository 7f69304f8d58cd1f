import { useMemo } from 'react';
import { RemoteSelect } from '../../../../resource/RemoteSelect.tsx';

type Item = { id: string; name?: string };

export interface DomainAssetsFieldProps {
  value?: Item[];
  onChange?(value: Item[]): void;
}

/** A domain's assets: assets whose platform allows domains; gateways are not offered. */
export function DomainAssetsField({ value = [], onChange }: DomainAssetsFieldProps) {
  const seed = useMemo(() => value.map((a) => ({ value: a.id, label: a.name ?? a.id })), [value]);
  return (
    <RemoteSelect
      url="/api/v1/assets/assets/?domain_enabled=true"
      multiple
      seed={seed}
      value={value.map((a) => a.id)}
      optionLabel={(o) => `${String(o.name)}(${String(o.address)})`}
      onChange={(ids) =>
        onChange?.(((ids as string[] | null) ?? []).map((id) => value.find((a) => a.id === id) ?? { id }))
      }
    />
  );
}
