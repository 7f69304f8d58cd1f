import { Descriptions, Modal, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { licenseIsValid, PRODUCT_NAME, PRODUCT_VERSION, SOURCE_REPOSITORY_URL } from '@gatehouse/contract';
import { useAppStore } from '../lib/appStore.ts';
import styles from './Layout.module.css';

export const DOWNLOAD_CENTRE_PATH = '/core/download/';

/** About: product, version, licence company, copyright, source and download centre. */
export function AboutDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const settings = useAppStore((s) => s.publicSettings);
  const licensed = licenseIsValid(settings);
  const corporation = licensed ? settings?.XPACK_LICENSE_INFO?.corporation : undefined;
  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t('shell.about.title')} width={460} destroyOnHidden>
      <div data-testid="about-dialog">
        <Space align="center" size={14} style={{ marginBottom: 16 }}>
          <img src="/ui/logo.svg" alt="" width={48} height={48} />
          <div>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {PRODUCT_NAME}
            </Typography.Title>
            <Typography.Text type="secondary">{t('shell.about.tagline')}</Typography.Text>
          </div>
        </Space>
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label={t('shell.about.version')}>{PRODUCT_VERSION}</Descriptions.Item>
          <Descriptions.Item label={t('shell.about.edition')}>
            {t(licensed ? 'shell.edition.enterprise' : 'shell.edition.community')}
          </Descriptions.Item>
          {corporation && <Descriptions.Item label={t('shell.about.licensee')}>{corporation}</Descriptions.Item>}
        </Descriptions>
        <div className={styles.aboutLinks}>
          <a href={SOURCE_REPOSITORY_URL} target="_blank" rel="noopener noreferrer">
            {t('shell.about.source')}
          </a>
          <a href={DOWNLOAD_CENTRE_PATH} target="_blank" rel="noopener noreferrer">
            {t('shell.about.download')}
          </a>
        </div>
        <Typography.Text type="secondary" className={styles.copyright}>
          {t('shell.about.copyright', { year: new Date().getFullYear(), holder: corporation || PRODUCT_NAME })}
        </Typography.Text>
      </div>
    </Modal>
  );
}
