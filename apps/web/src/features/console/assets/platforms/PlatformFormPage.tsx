import { Form, Input, Select } from 'antd';
import { useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { FieldSpec } from '../../../../resource/FormField.tsx';
import { ResourceForm } from '../../../../resource/ResourceForm.tsx';
import { relatedId } from '../../../../resource/values.ts';
import { ProtocolsField, protocolsRule } from '../fields/ProtocolsField.tsx';
import { protocolsPayload, type ProtocolRow } from '../fields/protocolRules.ts';
import {
  categoryOptions,
  constraintsOf,
  defaultPlatformProtocols,
  platformProtocolChoices,
  typeOptions,
} from './platformChoices.ts';
import { PLATFORMS_URL } from './platformRoute.tsx';

interface SelectProps {
  value?: string;
  onChange?(v: string): void;
  disabled?: boolean;
}

function CategorySelect(props: SelectProps) {
  const { i18n } = useTranslation();
  return <Select {...props} options={categoryOptions(i18n.language)} data-testid="platform-category" />;
}

/** The type, among the chosen category's types (free text for custom categories). */
function TypeSelect(props: SelectProps) {
  const { i18n } = useTranslation();
  const category = Form.useWatch('category') as string | undefined;
  const options = typeOptions(category, i18n.language);
  if (!options.length)
    return <Input value={props.value} disabled={props.disabled} onChange={(e) => props.onChange?.(e.target.value)} />;
  return <Select {...props} options={options} data-testid="platform-type" />;
}

interface ProtocolsProps {
  value?: ProtocolRow[];
  onChange?(v: ProtocolRow[]): void;
}

/** The protocols the chosen type allows, with the primary chosen here. */
function PlatformProtocols(props: ProtocolsProps) {
  const category = Form.useWatch('category') as string | undefined;
  const type = Form.useWatch('type') as string | undefined;
  return <ProtocolsField {...props} mode="platform" choices={platformProtocolChoices(category, type, props.value)} />;
}

/** Platform create/update: `?category=&type=` on create. */
export function PlatformFormPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const [params] = useSearchParams();
  const category = params.get('category') ?? 'host';
  const type = params.get('type') ?? (category === 'host' ? 'linux' : undefined);
  const cons = constraintsOf(category, type);

  const fieldsMeta: Record<string, FieldSpec> = {
    category: { render: () => <CategorySelect disabled={Boolean(id)} /> },
    type: { render: () => <TypeSelect disabled={Boolean(id)} /> },
    protocols: { render: () => <PlatformProtocols />, rules: [protocolsRule(t, [], 'platform')] },
    domain_enabled: {
      hidden: (v) =>
        !constraintsOf(String(v.category), String(v.type))?.domain_enabled &&
        Boolean(constraintsOf(String(v.category), String(v.type))),
    },
    su_enabled: {
      hidden: (v) =>
        !constraintsOf(String(v.category), String(v.type))?.su_enabled &&
        Boolean(constraintsOf(String(v.category), String(v.type))),
    },
    su_method: { hidden: (v) => !v.su_enabled },
    charset: {},
  };
  return (
    <ResourceForm
      key={`${id ?? 'new'}:${category}:${type ?? ''}:${params.get('clone_from') ?? ''}`}
      url={PLATFORMS_URL}
      id={id}
      groups={[
        { title: 'assets.group.Basic', fields: ['name', 'category', 'type', 'charset', 'domain_enabled'] },
        { title: 'assets.group.Config', fields: ['protocols', 'su_enabled', 'su_method'] },
        { title: 'assets.group.Automations', fields: ['automation'] },
        { title: 'assets.group.Other', fields: ['comment'] },
      ]}
      fieldsMeta={fieldsMeta}
      initial={{
        category,
        type,
        charset: 'utf-8',
        domain_enabled: cons?.domain_enabled ?? true,
        protocols: defaultPlatformProtocols(category, type),
      }}
      afterGetFormValue={(values, object) => {
        if (!object) return values;
        const protocols = ((object.protocols as ProtocolRow[] | undefined) ?? []).map(
          ({ name, port, primary, required, default: d, public: p, setting }) => ({
            name,
            port,
            primary,
            required,
            default: d,
            public: p,
            setting,
          }),
        );
        return {
          ...values,
          category: String(relatedId(object.category)),
          type: String(relatedId(object.type)),
          protocols,
        };
      }}
      cleanValues={(values) => ({
        ...values,
        ...(Array.isArray(values.protocols)
          ? { protocols: protocolsPayload(values.protocols as ProtocolRow[], true) }
          : {}),
      })}
    />
  );
}
