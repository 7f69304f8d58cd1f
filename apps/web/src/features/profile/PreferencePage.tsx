import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Form,
  Input,
  InputNumber,
  Select,
  Spin,
  Switch,
  Tabs,
  Typography,
} from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PREFERENCE_SECRET_MAX, PREFERENCE_SECRET_MIN, PREFERENCES, type PreferenceField } from '@gatehouse/contract';
import { encryptSecret } from '../../lib/crypto.ts';
import { HttpError } from '../../lib/http.ts';
import { extractMessage } from '../../lib/httpErrors.ts';
import { useActiveTab } from '../../resource/useActiveTab.ts';
import { fetchPreferences, preferenceKey, savePreferences, type PreferenceGroups } from './credentialsApi.ts';

const TABS = ['luna', 'koko', 'lina'] as const;

function widget(def: PreferenceField) {
  switch (def.kind) {
    case 'boolean':
      return <Switch />;
    case 'number':
      return <InputNumber min={def.min} max={def.max} precision={0} />;
    case 'choice':
      return <Select style={{ maxWidth: 320 }} options={def.choices.map((c) => ({ value: c, label: c }))} />;
    case 'multi':
      return <Checkbox.Group options={def.choices.map((c) => ({ value: c, label: c }))} />;
  }
}

/** Field errors of a 400 (`{group: {field: [msg]}}`) onto the form's nested names. */
function fieldErrors(data: unknown): { name: [string, string]; errors: string[] }[] {
  if (!data || typeof data !== 'object') return [];
  return Object.entries(data as Record<string, unknown>).flatMap(([group, fields]) =>
    fields && typeof fields === 'object' && !Array.isArray(fields)
      ? Object.entries(fields as Record<string, unknown>).map(([name, msgs]) => ({
          name: [group, name] as [string, string],
          errors: Array.isArray(msgs) ? msgs.map(String) : [String(msgs)],
        }))
      : [],
  );
}

function CategoryForm({ category }: { category: 'luna' | 'koko' }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<PreferenceGroups>();
  const prefs = useQuery({ queryKey: preferenceKey(category), queryFn: () => fetchPreferences(category) });
  if (prefs.isLoading) return <Spin />;
  if (prefs.isError)
    return (
      <Alert
        type="error"
        showIcon
        title={extractMessage((prefs.error as HttpError).data) || t('session.error.unknown')}
      />
    );
  const save = async (values: PreferenceGroups) => {
    try {
      queryClient.setQueryData(preferenceKey(category), await savePreferences(category, values));
      void message.success(t('profile.saved'));
    } catch (e) {
      if (e instanceof HttpError) form.setFields(fieldErrors(e.data));
      else throw e;
    }
  };
  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={prefs.data}
      onFinish={(v) => void save(v)}
      data-testid={`preference-${category}`}
    >
      {Object.entries(PREFERENCES[category]).map(([group, fields]) => (
        <div key={group}>
          <Typography.Title level={5}>{t(`profile.pref.group.${group}`)}</Typography.Title>
          {Object.entries(fields).map(([name, def]) => (
            <Form.Item
              key={name}
              name={[group, name]}
              label={t(`profile.pref.${name}`)}
              valuePropName={def.kind === 'boolean' ? 'checked' : 'value'}
            >
              {widget(def)}
            </Form.Item>
          ))}
        </div>
      ))}
      <Button type="primary" htmlType="submit">
        {t('profile.save')}
      </Button>
    </Form>
  );
}

/** lina: the password of exported files, written only (the server says whether one is set). */
function LinaForm() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ secret_key: string; secret_key_again: string }>();
  const prefs = useQuery({ queryKey: preferenceKey('lina'), queryFn: () => fetchPreferences('lina') });
  const save = async (v: { secret_key: string; secret_key_again: string }) => {
    try {
      const basic = {
        secret_key: await encryptSecret(v.secret_key),
        secret_key_again: await encryptSecret(v.secret_key_again),
      };
      queryClient.setQueryData(preferenceKey('lina'), await savePreferences('lina', { basic }));
      form.resetFields();
      void message.success(t('profile.saved'));
    } catch (e) {
      if (e instanceof HttpError)
        form.setFields(fieldErrors(e.data).map((f) => ({ name: f.name[1] as 'secret_key', errors: f.errors })));
      else throw e;
    }
  };
  const isSet = Boolean((prefs.data?.basic as { has_secret_key?: boolean } | undefined)?.has_secret_key);
  return (
    <Form
      form={form}
      layout="vertical"
      onFinish={(v) => void save(v)}
      data-testid="preference-lina"
      style={{ maxWidth: 420 }}
    >
      <Typography.Paragraph type="secondary">
        {t('profile.pref.secretIntro')} {isSet ? t('profile.pref.secretSet') : t('profile.pref.secretUnset')}
      </Typography.Paragraph>
      <Form.Item
        name="secret_key"
        label={t('profile.pref.secret_key')}
        rules={[
          {
            required: true,
            min: PREFERENCE_SECRET_MIN,
            max: PREFERENCE_SECRET_MAX,
            message: t('profile.pref.secretLength'),
          },
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="secret_key_again"
        label={t('profile.pref.secret_key_again')}
        dependencies={['secret_key']}
        rules={[
          { required: true, message: t('profile.password.required') },
          ({ getFieldValue }) => ({
            validator: (_, v) =>
              !v || v === getFieldValue('secret_key')
                ? Promise.resolve()
                : Promise.reject(new Error(t('profile.password.mismatch'))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit">
        {t('profile.save')}
      </Button>
    </Form>
  );
}

/** `/profile/user/setting`: the preferences of the web terminal (luna), the SSH terminal (koko) and the console (lina). */
export function PreferencePage() {
  const { t } = useTranslation();
  const [active, choose] = useActiveTab(TABS, 'luna');
  const items = [
    { key: 'luna', label: t('profile.pref.tab.luna'), children: <CategoryForm category="luna" /> },
    { key: 'koko', label: t('profile.pref.tab.koko'), children: <CategoryForm category="koko" /> },
    { key: 'lina', label: t('profile.pref.tab.lina'), children: <LinaForm /> },
  ];
  return (
    <Card data-testid="profile-preferences" title={t('profile.route.preference')}>
      <Tabs activeKey={active} onChange={choose} items={items} />
    </Card>
  );
}
