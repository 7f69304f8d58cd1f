import { useState } from 'react';
import { App, Button, Card, Empty, Modal, Popconfirm, Space, Spin, Tag, Typography, Upload } from 'antd';
import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../lib/appStore.ts';
import { http, HttpError } from '../../../lib/http.ts';
import { errorMessage } from '../../../resource/errorMessage.ts';
import { APPLETS_API, APPLETS_PAGE } from './appletConfigs.ts';

export interface Applet {
  id: string;
  name: string;
  display_name: string;
  version: string;
  icon: string;
  is_active: boolean;
  protocols: string[];
  tags: string[];
  comment: string;
  type: { value: string; label: string };
}

/** The applets as cards (icon, name, version, protocols), the upload button (zip only) and delete. */
export function AppletCards() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const perms = useAppStore((s) => s.perms);
  const [uploading, setUploading] = useState(false);
  const list = useQuery({ queryKey: [APPLETS_API], queryFn: () => http.get<Applet[]>(APPLETS_API) });

  const send = async (file: File, update: boolean): Promise<void> => {
    const body = new FormData();
    body.append('file', file);
    try {
      const a = await http.post<Applet>(`${APPLETS_API}upload/${update ? '?update=1' : ''}`, body);
      message.success(t('applets.upload.done', { name: a.display_name, version: a.version }));
      await list.refetch();
    } catch (e) {
      const data = e instanceof HttpError ? (e.data as { code?: string; error?: string }) : undefined;
      if (!update && data?.code === 'exists') {
        const name = file.name.replace(/\.zip$/i, '');
        const ok = await modal.confirm({
          title: t('applets.upload.exists', { name }),
          content: t('applets.upload.replace'),
        });
        if (ok) await send(file, true);
        return;
      }
      const text = data?.error ?? errorMessage(e, t);
      Modal.error({ title: t('applets.upload.title'), content: <span data-testid="upload-error">{text}</span> });
    }
  };
  const upload = async (file: File) => {
    if (!/\.zip$/i.test(file.name)) {
      message.error(t('applets.upload.zipOnly'));
      return;
    }
    setUploading(true);
    try {
      await send(file, false);
    } finally {
      setUploading(false);
    }
  };
  const remove = async (a: Applet) => {
    try {
      await http.delete(`${APPLETS_API}${a.id}/`);
      message.success(t('applets.card.deleted'));
      await list.refetch();
    } catch (e) {
      message.error(errorMessage(e, t));
    }
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} size="large">
      {hasPermission(perms, 'terminal.add_applet') ? (
        <Space>
          <Upload
            accept=".zip,application/zip"
            showUploadList={false}
            beforeUpload={(file) => {
              void upload(file);
              return false;
            }}
          >
            <Button type="primary" icon={<UploadOutlined />} loading={uploading} data-testid="applet-upload">
              {t('applets.upload.button')}
            </Button>
          </Upload>
          <Typography.Text type="secondary">{t('applets.upload.hint')}</Typography.Text>
        </Space>
      ) : null}
      {list.isPending ? (
        <Spin />
      ) : !list.data?.length ? (
        <Empty description={t('applets.card.empty')} />
      ) : (
        <div
          data-testid="applet-cards"
          style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))', gap: 16 }}
        >
          {list.data.map((a) => (
            <Card
              key={a.id}
              hoverable
              data-testid={`applet-card-${a.name}`}
              onClick={() => navigate(`${APPLETS_PAGE}/applets/${a.id}`)}
              actions={
                hasPermission(perms, 'terminal.delete_applet')
                  ? [
                      <Popconfirm
                        key="delete"
                        title={t('applets.card.deleteConfirm', { name: a.display_name })}
                        onConfirm={(e) => {
                          e?.stopPropagation();
                          void remove(a);
                        }}
                        onCancel={(e) => e?.stopPropagation()}
                      >
                        <span onClick={(e) => e.stopPropagation()}>
                          <DeleteOutlined /> {t('applets.card.delete')}
                        </span>
                      </Popconfirm>,
                    ]
                  : []
              }
            >
              <Card.Meta
                avatar={<img src={a.icon} alt="" width={48} height={48} style={{ objectFit: 'contain' }} />}
                title={a.display_name}
                description={
                  <Space direction="vertical" size={4}>
                    <Typography.Text type="secondary">
                      {t('applets.card.version', { version: a.version })}
                    </Typography.Text>
                    <Space size={[4, 4]} wrap>
                      {a.protocols.map((p) => (
                        <Tag key={p} color="blue">
                          {p}
                        </Tag>
                      ))}
                      <Tag>{a.type.label}</Tag>
                      {a.is_active ? null : <Tag color="default">{t('applets.card.inactive')}</Tag>}
                    </Space>
                  </Space>
                }
              />
            </Card>
          ))}
        </div>
      )}
    </Space>
  );
}
