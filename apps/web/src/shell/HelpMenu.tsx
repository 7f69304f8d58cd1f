import { useState } from 'react';
import { type MenuProps } from 'antd';
import { LazyDropdown } from '../lib/LazyDropdown.tsx';
import {
  CustomerServiceOutlined,
  CrownOutlined,
  InfoCircleOutlined,
  QuestionCircleOutlined,
  ReadOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../lib/appStore.ts';
import { LazyWhen, lazyComponent } from '../lib/LazyWhen.tsx';
import { helpEntries } from './navbarGates.ts';
import styles from './Layout.module.css';

const AboutDialog = lazyComponent(() => import('./AboutDialog.tsx').then((m) => m.AboutDialog));

const external = (href: string, text: string) => (
  <a href={href} target="_blank" rel="noopener noreferrer">
    {text}
  </a>
);

/** Help: Docs, Support, Enterprise edition (without a valid licence), About. */
export function HelpMenu() {
  const { t } = useTranslation();
  const settings = useAppStore((s) => s.publicSettings);
  const [about, setAbout] = useState(false);
  const entries = helpEntries(settings);
  const items: MenuProps['items'] = entries.map((id) => {
    switch (id) {
      case 'docs':
        return { key: id, icon: <ReadOutlined />, label: external(settings!.HELP_DOCUMENT_URL, t('shell.help.docs')) };
      case 'support':
        return {
          key: id,
          icon: <CustomerServiceOutlined />,
          label: external(settings!.HELP_SUPPORT_URL, t('shell.help.support')),
        };
      case 'enterprise':
        // The enterprise edition is offered by the support site.
        return {
          key: id,
          icon: <CrownOutlined />,
          label: external(settings?.HELP_SUPPORT_URL || '/', t('shell.help.enterprise')),
        };
      case 'about':
        return { key: id, icon: <InfoCircleOutlined />, label: t('shell.help.about'), onClick: () => setAbout(true) };
    }
  });
  return (
    <>
      <LazyDropdown menu={{ items }} trigger={['click']} placement="bottomRight">
        <button
          type="button"
          className={styles.navButton}
          aria-label={t('shell.nav.help')}
          title={t('shell.nav.help')}
          data-testid="help-menu"
        >
          <QuestionCircleOutlined />
        </button>
      </LazyDropdown>
      <LazyWhen when={about}>
        <AboutDialog open={about} onClose={() => setAbout(false)} />
      </LazyWhen>
    </>
  );
}
