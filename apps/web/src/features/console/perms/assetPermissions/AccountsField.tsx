import { useQuery } from '@tanstack/react-query';
import { Checkbox, Form, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { http } from '../../../../lib/http.ts';
import { RemoteSelect } from '../../../../resource/RemoteSelect.tsx';
import { SPEC, TEMPLATE_PREFIX, VIRTUAL_ACCOUNTS } from './permActions.ts';

export interface AccountsFieldProps {
  value?: string[];
  onChange?(value: string[]): void;
}

const ids = (v: unknown): string[] =>
  Array.isArray(v) ? v.map((x) => String(x && typeof x === 'object' ? (x as { id: unknown }).id : x)) : [];

/**
 * A permission's accounts: the virtual choices (all, specified, manual input, same name as the user,
 * anonymous); "specified" adds usernames suggested from the accounts of the chosen assets and nodes,
 * and account templates (`%<id>`). `@SPEC` only opens the specified part; it is not sent.
 */
export function AccountsField({ value = [], onChange }: AccountsFieldProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const assets = ids(Form.useWatch('assets', form));
  const nodes = ids(Form.useWatch('nodes', form));
  const virtual = value.filter((v) => v.startsWith('@'));
  const named = value.filter((v) => !v.startsWith('@') && !v.startsWith(TEMPLATE_PREFIX));
  const templates = value.filter((v) => v.startsWith(TEMPLATE_PREFIX)).map((v) => v.slice(1));
  const spec = virtual.includes(SPEC) || named.length > 0 || templates.length > 0;
  const suggestions = useQuery({
    queryKey: ['perm-account-usernames', assets, nodes],
    queryFn: () => http.post<string[]>('/api/v1/accounts/accounts/username-suggestions/', { assets, nodes }),
    enabled: spec,
  });
  const emit = (v: string[], n: string[], tpl: string[]) =>
    onChange?.([...v, ...n, ...tpl.map((id) => `${TEMPLATE_PREFIX}${id}`)]);
  const checked = spec ? [...new Set([...virtual, SPEC])] : virtual;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="perm-accounts-field">
      <Checkbox.Group
        value={checked}
        options={VIRTUAL_ACCOUNTS.map((a) => ({ value: a, label: t(`perms.account.${a.slice(1)}`) }))}
        onChange={(next) => {
          const v = next.map(String);
          const keepSpec = v.includes(SPEC);
          emit(
            v.filter((x) => x !== SPEC || (keepSpec && !named.length && !templates.length)),
            keepSpec ? named : [],
            keepSpec ? templates : [],
          );
        }}
      />
      {spec && (
        <>
          <Select
            mode="tags"
            value={named}
            placeholder={t('perms.account.usernames')}
            tokenSeparators={[',', ' ']}
            options={(suggestions.data ?? []).map((u) => ({ value: u, label: u }))}
            onChange={(n: string[]) => emit(virtual, n, templates)}
            data-testid="perm-account-usernames"
            style={{ width: '100%' }}
          />
          <RemoteSelect
            url="/api/v1/accounts/account-templates/"
            multiple
            value={templates}
            placeholder={t('perms.account.templates')}
            optionLabel={(o) => `${String(o.name)}(${String(o.username)})`}
            onChange={(tpl) => emit(virtual, named, (tpl as string[] | null) ?? [])}
          />
        </>
      )}
    </Space>
  );
}
