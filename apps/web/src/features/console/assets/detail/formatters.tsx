import { Tag } from 'antd';
import type { CellFormatter } from '../../../../resource/formatters.tsx';
import { labelColour } from '../fields/labelParse.ts';
import { ConnectivityTag } from './ConnectivityTag.tsx';

type Rel = { id: string; name?: string; value?: string };

/** Protocols as `name/port` tags, the primary first in blue. */
export const protocolTags: CellFormatter = ({ value }) =>
  Array.isArray(value) && value.length ? (
    <>
      {(value as { name: string; port: number; primary?: boolean }[]).map((p) => (
        <Tag key={p.name} color={p.primary ? 'blue' : undefined}>{`${p.name}/${p.port}`}</Tag>
      ))}
    </>
  ) : (
    '-'
  );

/** Labels as coloured `name:value` tags. */
export const labelTags: CellFormatter = ({ value }) =>
  Array.isArray(value) && value.length ? (
    <>
      {(value as Rel[]).map((l) => (
        <Tag key={l.id} color={labelColour(String(l.name))}>{`${String(l.name)}:${String(l.value)}`}</Tag>
      ))}
    </>
  ) : (
    '-'
  );

export const connectivity: CellFormatter = ({ value }) => <ConnectivityTag value={value} testId="connectivity-cell" />;
