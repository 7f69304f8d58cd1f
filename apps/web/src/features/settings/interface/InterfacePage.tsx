import { useState } from 'react';
import { App, Button, Card, Form, Input, Popconfirm, Select, Space, Spin, Typography, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { INTERFACE_IMAGES, type InterfaceImage, type PublicSettings } from '@gatehouse/contract';
import { http, HttpError } from '../../../lib/http.ts';
import { useAppStore } from '../../../lib/appStore.ts';
import { PUBLIC_SETTINGS_URL } from '../../../lib/httpErrors.ts';
import { errorMessage } from '../../../resource/errorMessage.ts';
import { messagesOf } from '../../../resource/formErrors.ts';

/**
 * Settings › Interface (licensed): login title, theme and the four images, each with the size the
 * server requires (contract `INTERFACE_IMAGES`); saved as one multipart PUT, after which the public
 * settings are read again so the sidebar, favicon and colours change at once. Restore puts the
 * built-in ones back.
 */
const URL = '/api/v1/xpack/interface/setting/';
const NAMES = Object.keys(INTERFACE_IMAGES) as InterfaceImage[];
type Current = { login_title: string; theme: string } & Record<InterfaceImage, string>;

async function refreshPublicSettings(): Promise<void> {
  useAppStore.getState().set({ publicSettings: await http.get<PublicSettings>(PUBLIC_SETTINGS_URL) });
}

export function InterfacePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const current = useQuery({ queryKey: [URL], queryFn: () => http.get<Current>(URL) });
  const themes = useQuery({
    queryKey: ['/api/v1/xpack/interface/themes/'],
    queryFn: () => http.get<{ name: string; colors: Record<string, string> }[]>('/api/v1/xpack/interface/themes/'),
  });
  const [files, setFiles] = useState<Partial<Record<InterfaceImage, File>>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<{ login_title: string; theme: string }>();

  if (current.isPending) return <Spin />;
  const done = async () => {
    setFiles({});
    setErrors({});
    await queryClient.invalidateQueries({ queryKey: [URL] });
    await refreshPublicSettings();
  };
  const save = async (values: { login_title: string; theme: string }) => {
    const body = new FormData();
    body.append('login_title', values.login_title);
    body.append('theme', values.theme);
    for (const [name, file] of Object.entries(files)) body.append(name, file);
    setSaving(true);
    try {
      await http.put(URL, body);
      await done();
      message.success(t('settingsTerminal.interface.saved'));
    } catch (e) {
      if (e instanceof HttpError && e.status === 400 && e.data && typeof e.data === 'object')
        setErrors(Object.fromEntries(Object.entries(e.data as object).map(([k, v]) => [k, messagesOf(v).join('; ')])));
      else message.error(errorMessage(e, t));
    } finally {
      setSaving(false);
    }
  };
  const restore = async () => {
    await http.put(`${URL}restore/`);
    await done();
    form.setFieldsValue({ login_title: 'Gatehouse', theme: 'classic_green' });
    message.success(t('settingsTerminal.interface.restored'));
  };

  return (
    <Card>
      <Form
        form={form}
        layout="horizontal"
        labelCol={{ span: 4 }}
        wrapperCol={{ span: 14 }}
        initialValues={{ login_title: current.data?.login_title, theme: current.data?.theme }}
        onFinish={(v) => void save(v)}
        data-testid="interface-form"
      >
        <Form.Item
          name="login_title"
          label={t('settingsTerminal.interface.login_title')}
          validateStatus={errors.login_title ? 'error' : undefined}
          help={errors.login_title}
        >
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item
          name="theme"
          label={t('settingsTerminal.interface.theme')}
          validateStatus={errors.theme ? 'error' : undefined}
          help={errors.theme}
        >
          <Select
            options={(themes.data ?? []).map((x) => ({
              value: x.name,
              label: (
                <Space>
                  <span
                    style={{
                      display: 'inline-block',
                      width: 12,
                      height: 12,
                      borderRadius: 2,
                      background: x.colors['--color-primary'],
                    }}
                  />
                  {t(`settingsTerminal.interface.themes.${x.name}`)}
                </Space>
              ),
            }))}
          />
        </Form.Item>
        {NAMES.map((name) => {
          const size = INTERFACE_IMAGES[name];
          const src = current.data?.[name];
          return (
            <Form.Item
              key={name}
              label={t(`settingsTerminal.interface.${name}`)}
              validateStatus={errors[name] ? 'error' : undefined}
              help={errors[name] ?? t('settingsTerminal.interface.sizeHelp', size)}
              data-testid={`interface-${name}`}
            >
              <Space align="center">
                {src ? (
                  <img
                    src={src}
                    alt=""
                    height={name === 'favicon' ? 16 : 40}
                    style={{ background: '#2f4050', padding: 4, borderRadius: 2, boxSizing: 'content-box' }}
                  />
                ) : (
                  <Typography.Text type="secondary">{t('settingsTerminal.interface.none')}</Typography.Text>
                )}
                <Upload
                  accept="image/png,image/jpeg,image/gif,image/x-icon"
                  maxCount={1}
                  beforeUpload={(file) => (setFiles((f) => ({ ...f, [name]: file })), false)}
                  onRemove={() => setFiles(({ [name]: _gone, ...rest }) => rest)}
                  fileList={files[name] ? [{ uid: name, name: files[name].name, status: 'done' as const }] : []}
                >
                  <Button icon={<UploadOutlined />}>{t('settingsTerminal.interface.choose')}</Button>
                </Upload>
              </Space>
            </Form.Item>
          );
        })}
        <Form.Item wrapperCol={{ offset: 4 }}>
          <Space>
            <Popconfirm title={t('settingsTerminal.interface.restoreConfirm')} onConfirm={() => void restore()}>
              <Button>{t('settingsTerminal.interface.restore')}</Button>
            </Popconfirm>
            <Button type="primary" htmlType="submit" loading={saving}>
              {t('settingsTerminal.interface.submit')}
            </Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}
