import type { ReactNode } from 'react';
import { Checkbox, DatePicker, Form, Input, InputNumber, Radio, Select, Switch, type FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DisplayContext } from './columns.ts';
import { PhoneInput } from './PhoneInput.tsx';
import { RemoteSelect, type OptionLabel, type SelectOption } from './RemoteSelect.tsx';
import type { Choice, FieldMeta } from './types.ts';
import { widgetFor, type WidgetKind } from './widgets.ts';

export interface FormContext extends DisplayContext {
  isCreate: boolean;
  isUpdate: boolean;
}

/** What a page may say about one form field on top of its metadata (`fieldsMeta`). */
export interface FieldSpec {
  widget?: WidgetKind;
  /** The list URL a related field chooses from. */
  url?: string;
  optionLabel?: OptionLabel;
  /** i18n keys. */
  label?: string;
  helpText?: string;
  hidden?(values: Record<string, unknown>, ctx: FormContext): boolean;
  disabled?: boolean;
  rules?: FormRule[];
  choices?: Choice[];
  /** A custom input (one element: the form item gives it `value` and `onChange`) instead of the metadata's widget. */
  render?(): ReactNode;
}

export interface FormFieldProps {
  name: string;
  meta: FieldMeta;
  spec?: FieldSpec;
  seed?: SelectOption[];
}

function control(
  kind: WidgetKind,
  meta: FieldMeta,
  spec: FieldSpec,
  seed: SelectOption[] | undefined,
  placeholder?: string,
): ReactNode {
  const choices = (spec.choices ?? meta.choices ?? []).map((c) => ({
    value: c.value as string | number,
    label: c.label,
  }));
  switch (kind) {
    case 'radio':
      return <Radio.Group options={choices} disabled={spec.disabled} />;
    case 'select':
      return (
        <Select options={choices} showSearch={{ optionFilterProp: 'label' }} allowClear disabled={spec.disabled} />
      );
    case 'checkboxes':
      return <Checkbox.Group options={choices} disabled={spec.disabled} />;
    case 'datetime':
      return <DatePicker showTime format="YYYY-MM-DD HH:mm:ss" disabled={spec.disabled} />;
    case 'json':
      return <Input.TextArea rows={4} disabled={spec.disabled} spellCheck={false} />;
    case 'remote':
    case 'remoteMultiple':
      return spec.url ? (
        <RemoteSelect
          url={spec.url}
          multiple={kind === 'remoteMultiple'}
          seed={seed}
          optionLabel={spec.optionLabel}
          disabled={spec.disabled}
          placeholder={placeholder}
        />
      ) : (
        <Select mode={kind === 'remoteMultiple' ? 'multiple' : undefined} options={seed} disabled={spec.disabled} />
      );
    case 'textarea':
      return <Input.TextArea rows={3} disabled={spec.disabled} />;
    case 'password':
      return <Input.Password autoComplete="new-password" disabled={spec.disabled} />;
    case 'email':
      return <Input type="email" disabled={spec.disabled} />;
    case 'switch':
      return <Switch disabled={spec.disabled} />;
    case 'tags':
      return (
        <Select mode="tags" open={false} tokenSeparators={[',', ' ']} disabled={spec.disabled} suffixIcon={null} />
      );
    case 'number':
      return (
        <InputNumber min={meta.min_value} max={meta.max_value} disabled={spec.disabled} style={{ width: '100%' }} />
      );
    case 'phone':
      return <PhoneInput asText={meta.type === 'string'} />;
    default:
      return <Input maxLength={meta.max_length} disabled={spec.disabled} />;
  }
}

/** One labelled input chosen from the field's metadata, with its required/format rules. */
export function FormField({ name, meta, spec = {}, seed }: FormFieldProps) {
  const { t } = useTranslation();
  const kind = spec.widget ?? widgetFor(name, meta);
  const typing = ['input', 'textarea', 'password', 'email', 'json', 'number'].includes(kind);
  const rules: FormRule[] = [];
  // List values are checked as arrays (a required rule types its value as a string by default).
  const many = ['list', 'm2m_related_field', 'multiple choice'].includes(meta.type);
  if (meta.required)
    rules.push({
      required: true,
      ...(many ? { type: 'array' as const } : {}),
      message: t('resource.form.required'),
      validateTrigger: typing ? 'onBlur' : 'onChange',
    });
  if (kind === 'email')
    rules.push({ type: 'email', message: t('resource.form.invalidEmail'), validateTrigger: 'onBlur' });
  if (kind === 'json') {
    rules.push({
      validateTrigger: 'onBlur',
      validator: async (_, v: unknown) => {
        if (typeof v === 'string' && v.trim()) JSON.parse(v);
      },
      message: t('resource.form.invalidJson'),
    });
  }
  const label = spec.label ? t(spec.label) : (meta.label ?? name);
  const help = spec.helpText ? t(spec.helpText) : meta.help_text;
  return (
    <Form.Item
      name={name}
      label={label}
      extra={help}
      rules={[...rules, ...(spec.rules ?? [])]}
      validateTrigger={['onChange', 'onBlur']}
      valuePropName={kind === 'switch' ? 'checked' : 'value'}
    >
      {spec.render ? spec.render() : control(kind, meta, spec, seed)}
    </Form.Item>
  );
}
