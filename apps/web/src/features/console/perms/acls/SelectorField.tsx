import { Button, Input, Radio, Select } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../../../../lib/http.ts';
import { RemoteSelect, type OptionLabel } from '../../../../resource/RemoteSelect.tsx';
import type { Page, ResourceObject } from '../../../../resource/types.ts';
import { objectName } from '../../../../resource/values.ts';
import { parseJsonValue } from './jsonValue.ts';
import styles from './acls.module.css';

interface AttrRule {
  name: string;
  match: string;
  value: unknown;
}
type Selector = { type: 'all' } | { type: 'ids'; ids: string[] } | { type: 'attrs'; attrs: AttrRule[] };

export const USER_ATTRS = ['name', 'username', 'email', 'comment', 'source', 'groups'];
export const ASSET_ATTRS = [
  'name',
  'address',
  'platform',
  'category',
  'type',
  'nodes',
  'labels',
  'protocols',
  'comment',
];
const MATCHES = [
  'exact',
  'not',
  'contains',
  'startswith',
  'endswith',
  'regex',
  'in',
  'm2m',
  'ip_in',
  'gte',
  'lte',
  'gt',
  'lt',
];
const LIST_MATCHES = new Set(['in', 'm2m', 'ip_in']);

export interface SelectorFieldProps {
  /** The list the `ids` choice picks from, e.g. `/api/v1/users/users/`. */
  url: string;
  attrs: string[];
  optionLabel?: OptionLabel;
  value?: string | Selector;
  /** Sends JSON text, as the form holds `json` fields (the payload parses it). */
  onChange?(value: string): void;
}

/** Labels of chosen ids, so a saved rule shows names rather than uuids. */
function useSeed(url: string, ids: string[]) {
  const q = useQuery({
    queryKey: ['acl-selector-seed', url, ids.join(',')],
    enabled: ids.length > 0,
    queryFn: () =>
      http.get<Page<ResourceObject> | ResourceObject[]>(url, { params: { ids: ids.join(','), limit: 100 } }),
  });
  const rows = Array.isArray(q.data) ? q.data : (q.data?.results ?? []);
  return rows.map((r) => ({ value: String(r.id), label: objectName(r) }));
}

/**
 * The original's JSON many-to-many selector (users or assets): all, specific objects, or
 * attribute rules that must all hold (`groups includes Ops`, `address address in 10.0.0.0/8`).
 */
export function SelectorField({ url, attrs, optionLabel, value, onChange: emit }: SelectorFieldProps) {
  const { t } = useTranslation();
  const onChange = (v: Selector) => emit?.(JSON.stringify(v));
  const sel = parseJsonValue<Selector>(value) ?? { type: 'all' };
  const ids = sel.type === 'ids' ? sel.ids : [];
  const seed = useSeed(url, ids);
  const rules = sel.type === 'attrs' ? sel.attrs : [];
  const setRules = (next: AttrRule[]) => onChange({ type: 'attrs', attrs: next });
  return (
    <div data-testid="selector-field">
      <Radio.Group
        value={sel.type}
        onChange={(e) => {
          const type = e.target.value as Selector['type'];
          onChange(
            type === 'all'
              ? { type }
              : type === 'ids'
                ? { type, ids: [] }
                : { type, attrs: [{ name: attrs[0]!, match: 'exact', value: '' }] },
          );
        }}
        options={(['all', 'ids', 'attrs'] as const).map((v) => ({ value: v, label: t(`acls.selector.${v}`) }))}
        style={{ marginBottom: 8 }}
      />
      {sel.type === 'ids' && (
        <RemoteSelect
          url={url}
          multiple
          seed={seed}
          optionLabel={optionLabel}
          value={ids}
          onChange={(v) => onChange({ type: 'ids', ids: Array.isArray(v) ? v : v ? [v] : [] })}
        />
      )}
      {sel.type === 'attrs' && (
        <div>
          {rules.map((r, i) => {
            const update = (patch: Partial<AttrRule>) =>
              setRules(rules.map((x, j) => (j === i ? { ...x, ...patch } : x)));
            const listValue = LIST_MATCHES.has(r.match);
            return (
              <div className={styles.attrRow} key={i} data-testid="attr-rule">
                <Select
                  aria-label={t('acls.selector.attribute')}
                  style={{ width: 140 }}
                  value={r.name}
                  options={attrs.map((a) => ({ value: a, label: a }))}
                  onChange={(name) => update({ name })}
                />
                <Select
                  aria-label={t('acls.selector.match')}
                  style={{ width: 150 }}
                  value={r.match}
                  options={MATCHES.map((m) => ({ value: m, label: t(`acls.match.${m}`) }))}
                  onChange={(match) =>
                    update({
                      match,
                      value: LIST_MATCHES.has(match)
                        ? Array.isArray(r.value)
                          ? r.value
                          : r.value
                            ? [String(r.value)]
                            : []
                        : Array.isArray(r.value)
                          ? String(r.value[0] ?? '')
                          : r.value,
                    })
                  }
                />
                {listValue ? (
                  <Select
                    aria-label={t('acls.selector.value')}
                    mode="tags"
                    open={false}
                    suffixIcon={null}
                    tokenSeparators={[',', ' ']}
                    style={{ flex: 1 }}
                    value={Array.isArray(r.value) ? (r.value as string[]) : []}
                    onChange={(v: string[]) => update({ value: v })}
                  />
                ) : (
                  <Input
                    aria-label={t('acls.selector.value')}
                    style={{ flex: 1 }}
                    value={String(r.value ?? '')}
                    onChange={(e) => update({ value: e.target.value })}
                  />
                )}
                <Button
                  aria-label={t('acls.selector.remove')}
                  icon={<DeleteOutlined />}
                  disabled={rules.length === 1}
                  onClick={() => setRules(rules.filter((_, j) => j !== i))}
                />
              </div>
            );
          })}
          <Button
            size="small"
            icon={<PlusOutlined />}
            onClick={() => setRules([...rules, { name: attrs[0]!, match: 'exact', value: '' }])}
          >
            {t('acls.selector.addRule')}
          </Button>
        </div>
      )}
    </div>
  );
}
