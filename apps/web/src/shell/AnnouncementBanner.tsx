import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../lib/appStore.ts';
import { lazyComponent } from '../lib/LazyWhen.tsx';
import { ANNOUNCEMENT_DISMISSED_KEY, announcementToShow } from './banners.ts';
import styles from './Layout.module.css';

const Alert = lazyComponent(() => import('./antdAlert.ts').then((m) => m.Alert));

function dismissed(): string | null {
  try {
    return localStorage.getItem(ANNOUNCEMENT_DISMISSED_KEY);
  } catch {
    return null;
  }
}

/**
 * The announcement every signed-in user sees above the page until they close it; closing keeps its
 * id in this browser, and a newly saved announcement (a new id) shows again. Plain text: the
 * subject and content are shown as written, the link only as http(s) (the server checks it).
 */
export function AnnouncementBanner() {
  const { t } = useTranslation();
  const settings = useAppStore((s) => s.publicSettings);
  const [closed, setClosed] = useState(dismissed);
  const a = announcementToShow(settings, closed);
  if (!a) return null;
  const close = () => {
    try {
      localStorage.setItem(ANNOUNCEMENT_DISMISSED_KEY, a.ID);
    } catch {
      // A browser without storage shows it again on the next load.
    }
    setClosed(a.ID);
  };
  return (
    <Suspense fallback={null}>
      <div className={styles.banners}>
        <Alert
          type="info"
          showIcon
          closable
          onClose={close}
          data-testid="announcement"
          title={a.SUBJECT}
          description={
            <>
              <span style={{ whiteSpace: 'pre-wrap' }}>{a.CONTENT}</span>
              {/^https?:\/\//i.test(a.LINK) && (
                <>
                  {' '}
                  <a href={a.LINK} target="_blank" rel="noopener noreferrer">
                    {t('shell.banner.announcementLink')}
                  </a>
                </>
              )}
            </>
          }
        />
      </div>
    </Suspense>
  );
}
