import { useState } from 'react';
import { Alert, App, Button, Card, Form, Input, InputNumber, Select, Space, Spin, Switch } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { settingFields, type PublicSettings, type SettingField } from '@gatehouse/contract';
import { useAppStore } from '../../../lib/appStore.ts';
import { http, HttpError } from '../../../lib/http.ts';
import { PUBLIC_SETTINGS_URL } from '../../../lib/httpErrors.ts';
import { errorMessage } from '../../../resource/errorMessage.ts';
import { mapFormErrors } from '../../../resource/formErrors.ts';
import { changedValues, type SettingsPageDef } from './settingsPages.ts';

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
  if ('secret' in field) return <Input.Password {...props} autoComplete="new-password" />;
  return <Input {...props} />;
}

/** The navbar and menus read the public settings: a saved key among them is read again. */
async function refreshPublicSettings(saved: string[]): Promise<void> {
  const { publicSettings, set } = useAppStore.getState();
  if (!publicSettings || !saved.some((k) => k in publicSettings)) return;
  set({ publicSettings: await http.get<PublicSettings>(PUBLIC_SETTINGS_URL) });
}

/**
 * A settings page drawn from its declaration (settingsPages.ts): one card per section, the
 * category's values loaded once, and Save sending a PATCH of the changed fields only; a 400 puts
 * the server's messages under their fields.
 */
export function SettingsForm({ page }: { page: SettingsPageDef }) {
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
              if (!field) return null;
              const help = t(`settings.field.${name}.help`, { defaultValue: '' });
              return (
                <Form.Item
                  key={name}
                  name={name}
                  label={t(`settings.field.${name}.label`)}
                  extra={help || undefined}
                  valuePropName={field.type === 'bool' ? 'checked' : 'value'}
                >
                  {field.type === 'bool' ? <Switch /> : <FieldInput name={name} field={field} />}
                </Form.Item>
              );
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
        </Space>
      </Space>
    </Form>
  );
}
