import { useState, type ReactNode } from 'react';
import {
  Alert,
  App,
  Button,
  Card,
  Form,
  Input,
  InputNumber,
  Select,
  Space,
  Spin,
  Switch,
  type FormInstance,
} from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { settingFields, type PublicSettings, type SettingField } from '@gatehouse/contract';
import { useAppStore } from '../../../lib/appStore.ts';
import { http, HttpError } from '../../../lib/http.ts';
import { PUBLIC_SETTINGS_URL } from '../../../lib/httpErrors.ts';
import { errorMessage } from '../../../resource/errorMessage.ts';
import { mapFormErrors } from '../../../resource/formErrors.ts';
import { changedValues, type SettingsPageDef } from './settingsPages.ts';
import { useMemberOrgOptions } from './memberOrgs.ts';

const URL = '/api/v1/settings/setting/';
type Values = Record<string, unknown>;

/** What Form.Item hands its child: the value, its change handler, and the id the label points at. */
interface ControlProps {
  id?: string;
  value?: unknown;
  onChange?: (v: unknown) => void;
}

/** The input of one declared field; Form.Item's props pass through to the antd control. */
function FieldInput({ name, field, ...control }: { name: string; field: SettingField } & ControlProps) {
  const { t } = useTranslation();
  const props = control as Record<string, never>;
  // No client-side range: the server's message (in the user's language) shows under the field.
  if (field.type === 'int') return <InputNumber {...props} style={{ width: 200 }} precision={0} />;
  if (field.type === 'choice')
    return (
      <Select
        {...props}
        style={{ width: 240 }}
        options={field.choices.map((c) => ({
          value: c,
          label: t(`settings.choice.${name}.${c}`, { defaultValue: String(c) }),
        }))}
      />
    );
  // A sealed document (a private key) is never shown: an empty text area, like the password input.
  if ('multiline' in field && field.multiline)
    return <Input.TextArea {...props} rows={6} style={{ fontFamily: 'monospace' }} autoComplete="off" />;
  if ('secret' in field) return <Input.Password {...props} autoComplete="new-password" />;
  if (field.type === 'string' && 'multiline' in field && field.multiline) return <Input.TextArea {...props} rows={4} />;
  if (field.type === 'list')
    return <Select {...props} mode="tags" style={{ width: 480 }} tokenSeparators={[',', ' ']} open={false} />;
  if (field.type === 'json') return <JsonInput {...control} />;
  if (field.type === 'orgs') return <OrgsInput {...control} />;
  return <Input {...props} />;
}

/** An object edited as JSON text; text that does not parse is handed on as is (the server names it). */
function JsonInput({ value, onChange, id }: ControlProps) {
  const [text, setText] = useState(() => (typeof value === 'string' ? value : JSON.stringify(value ?? {}, null, 2)));
  return (
    <Input.TextArea
      id={id}
      rows={5}
      style={{ fontFamily: 'monospace' }}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        try {
          onChange?.(JSON.parse(e.target.value));
        } catch {
          onChange?.(e.target.value);
        }
      }}
    />
  );
}

/** Organisations chosen by name (ids stored). */
function OrgsInput(control: ControlProps) {
  const orgs = useMemberOrgOptions();
  return (
    <Select
      {...(control as Record<string, never>)}
      mode="multiple"
      style={{ width: 400 }}
      loading={orgs.loading}
      options={orgs.options}
    />
  );
}

/** The navbar and menus read the public settings: a saved key among them is read again. */
async function refreshPublicSettings(saved: string[]): Promise<void> {
  const { publicSettings, set } = useAppStore.getState();
  if (!publicSettings || !saved.some((k) => k in publicSettings)) return;
  set({ publicSettings: await http.get<PublicSettings>(PUBLIC_SETTINGS_URL) });
}

/**
 * The form item of one declared field: its label and help from `settings.field.<key>`; an object's
 * sub-fields as items of their own under `settings.field.<NAME>.fields.<SUB>` (its `newId` kept
 * hidden, so an unchanged object compares equal to the loaded one).
 */
function FieldItem({
  name,
  field,
  path = [name],
  labelKey = name,
}: {
  name: string;
  field: SettingField;
  path?: string[];
  labelKey?: string;
}) {
  const { t } = useTranslation();
  if (field.type === 'object')
    return (
      <>
        {field.newId && <Form.Item name={[...path, field.newId]} hidden noStyle />}
        {Object.entries(field.fields).map(([sub, f]) => (
          <FieldItem key={sub} name={sub} field={f} path={[...path, sub]} labelKey={`${labelKey}.fields.${sub}`} />
        ))}
      </>
    );
  const help = t(`settings.field.${labelKey}.help`, { defaultValue: '' });
  return (
    <Form.Item
      name={path}
      label={t(`settings.field.${labelKey}.label`)}
      extra={help || undefined}
      valuePropName={field.type === 'bool' ? 'checked' : 'value'}
    >
      {field.type === 'bool' ? <Switch /> : <FieldInput name={name} field={field} />}
    </Form.Item>
  );
}

/**
 * A settings page drawn from its declaration (settingsPages.ts): one card per section, the
 * category's values loaded once, and Save sending a PATCH of the changed fields only; a 400 puts
 * the server's messages under their fields.
 */
export function SettingsForm({
  page,
  actions,
}: {
  page: SettingsPageDef;
  /** More buttons beside Save (a page's tools), given the form to read unsaved values from. */
  actions?: (form: FormInstance<Values>) => ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const [topErrors, setTopErrors] = useState<string[]>([]);
  const queryKey = [URL, page.category];
  const query = useQuery({
    queryKey,
    queryFn: () => http.get<Values>(URL, { params: { category: page.category } }),
  });
  const fields = settingFields(page.category);
  const shown = page.sections.flatMap((s) => s.fields);

  const save = async (values: Values) => {
    const body = changedValues(query.data ?? {}, values);
    if (Object.keys(body).length === 0) return void message.info(t('settings.form.nothingChanged'));
    setSaving(true);
    setTopErrors([]);
    try {
      const saved = await http.patch<Values>(URL, body, { params: { category: page.category } });
      queryClient.setQueryData(queryKey, saved);
      // The fields show what was stored (the server trims, lower-cases a host name...).
      form.setFieldsValue(Object.fromEntries(Object.keys(body).flatMap((k) => (k in saved ? [[k, saved[k]]] : []))));
      // A failed re-read leaves the old values until the next start; the save itself succeeded.
      void refreshPublicSettings(Object.keys(body)).catch(() => undefined);
      void message.success(<span data-testid="settings-saved">{t('settings.form.saved')}</span>);
    } catch (e) {
      if (e instanceof HttpError && e.status === 400) {
        const mapped = mapFormErrors(e.data, shown, (f) => t(`settings.field.${f}.label`));
        form.setFields(mapped.fields);
        setTopErrors(mapped.nonField);
        if (mapped.fields[0]) form.scrollToField(mapped.fields[0].name);
      } else setTopErrors([errorMessage(e, t)]);
    } finally {
      setSaving(false);
    }
  };

  if (query.isPending) return <Spin />;
  if (query.isError) return <Alert type="error" message={errorMessage(query.error, t)} />;
  return (
    <Form
      form={form}
      initialValues={query.data}
      layout="horizontal"
      labelCol={{ span: 8 }}
      wrapperCol={{ span: 14 }}
      onFinish={(v) => void save(v)}
      data-testid={`settings-form-${page.category}`}
    >
      {topErrors.length > 0 && <Alert type="error" message={topErrors.join('; ')} style={{ marginBottom: 16 }} />}
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        {page.sections.map((section) => (
          <Card key={section.title} title={t(`settings.section.${section.title}`)} size="small">
            {section.fields.map((name) => {
              const field = fields[name];
              return field ? <FieldItem key={name} name={name} field={field} /> : null;
            })}
          </Card>
        ))}
        <Space>
          <Button type="primary" htmlType="submit" loading={saving}>
            {t('settings.form.save')}
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              setTopErrors([]);
            }}
          >
            {t('settings.form.reset')}
          </Button>
          {actions?.(form)}
        </Space>
      </Space>
    </Form>
  );
}
