import { useState } from 'react';
import { App, Button, Card, Descriptions, Spin, Tag, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../lib/appStore.ts';
import { http } from '../../../lib/http.ts';
import { errorMessage } from '../../../resource/errorMessage.ts';
import { licenseState, type LicenseInfo } from './licenseState.ts';

const DETAIL = '/api/v1/xpack/license/detail';
const IMPORT = '/api/v1/xpack/license/import';
/** After an import the page reloads, so the licence-dependent views, routes and banners follow it. */
const RELOAD_MS = 1000;

/** Settings › License: the licence detail and the import of a licence file. */
export function LicensePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const canImport = useAppStore((s) => hasPermission(s.perms, 'settings.change_license'));
  const [uploading, setUploading] = useState(false);
  const detail = useQuery({ queryKey: [DETAIL], queryFn: () => http.get<LicenseInfo>(DETAIL) });

  const upload = async (file: File) => {
    const body = new FormData();
    body.append('file', file);
    setUploading(true);
    try {
      await http.post(IMPORT, body);
      message.success(t('settings.license.imported'));
      window.setTimeout(() => window.location.reload(), RELOAD_MS);
    } catch (e) {
      message.error(errorMessage(e, t));
    } finally {
      setUploading(false);
    }
  };

  if (detail.isPending) return <Spin />;
  const info = detail.data;
  const state = licenseState(info);
  const stateTag = { none: 'default', valid: 'success', expired: 'error' }[state];
  const dash = (v: unknown) => (v === undefined || v === null || v === '' ? '-' : String(v));
  return (
    <Card
      title={t('settings.license.title')}
      data-testid="license-page"
      extra={
        canImport && (
          <Upload accept=".lic,.txt,text/plain" showUploadList={false} beforeUpload={(f) => (void upload(f), false)}>
            <Button type="primary" icon={<UploadOutlined />} loading={uploading}>
              {t('settings.license.import')}
            </Button>
          </Upload>
        )
      }
    >
      <Descriptions
        column={1}
        bordered
        size="small"
        styles={{ label: { width: 220 } }}
        items={[
          {
            key: 'state',
            label: t('settings.license.state'),
            children: (
              <Tag color={stateTag} data-testid="license-state">
                {t(`settings.license.states.${state}`)}
              </Tag>
            ),
          },
          { key: 'corporation', label: t('settings.license.corporation'), children: dash(info?.corporation) },
          { key: 'edition', label: t('settings.license.edition'), children: dash(info?.edition) },
          { key: 'license_id', label: t('settings.license.id'), children: dash(info?.license_id) },
          { key: 'date_issued', label: t('settings.license.issued'), children: dash(info?.date_issued) },
          { key: 'date_expired', label: t('settings.license.expired'), children: dash(info?.date_expired) },
          {
            key: 'assets',
            label: t('settings.license.assets'),
            children: `${info?.current_asset_count ?? 0} / ${info?.asset_count ? info.asset_count : t('settings.license.unlimited')}`,
          },
        ]}
      />
    </Card>
  );
}
