import { useTranslation } from 'react-i18next';
import { licenseIsValid, PRODUCT_NAME, PRODUCT_VERSION } from '@gatehouse/contract';
import { useAppStore } from '../lib/appStore.ts';
import styles from './Layout.module.css';

/** The footer: version, licence type and corporation. */
export function Footer() {
  const { t } = useTranslation();
  const settings = useAppStore((s) => s.publicSettings);
  const licensed = licenseIsValid(settings);
  const corporation = (licensed && settings?.XPACK_LICENSE_INFO?.corporation) || PRODUCT_NAME;
  return (
    <footer className={styles.footer} data-testid="footer">
      <span>
        <strong>{PRODUCT_NAME}</strong> {t('shell.footer.version', { version: PRODUCT_VERSION })} ·{' '}
        {t(licensed ? 'shell.edition.enterprise' : 'shell.edition.community')}
      </span>
      <span>{t('shell.about.copyright', { year: new Date().getFullYear(), holder: corporation })}</span>
    </footer>
  );
}
