import { Suspense } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import { useAppStore } from '../lib/appStore.ts';
import { http } from '../lib/http.ts';
import { licenseBanners, licenseBannersAllowed, passwordBanner, type Banner, type LicenseDetail } from './banners.ts';
import { lazyComponent } from '../lib/LazyWhen.tsx';
import styles from './Layout.module.css';

/** antd's Alert loads only when there is a banner to show (most pages have none). */
const Alert = lazyComponent(() => import('./antdAlert.ts').then((m) => m.Alert));

dayjs.extend(localizedFormat);

/** Licence and password banners under the page title. */
export function PageBanners() {
  const { t } = useTranslation();
  const settings = useAppStore((s) => s.publicSettings);
  const perms = useAppStore((s) => s.perms);
  const profile = useAppStore((s) => s.profile);
  const allowed = licenseBannersAllowed(settings, perms);
  const license = useQuery({
    queryKey: ['xpack-license-detail'],
    queryFn: () => http.get<LicenseDetail>('/api/v1/xpack/license/detail'),
    enabled: allowed,
    staleTime: 10 * 60_000,
  });
  const banners: Banner[] = [
    ...(allowed ? licenseBanners(license.data) : []),
    passwordBanner(profile, settings),
  ].filter((b): b is Banner => Boolean(b));
  if (!banners.length) return null;
  // Dates follow the language: lib/i18n sets dayjs's locale with it.
  const format = (params: Banner['params']) =>
    params?.date ? { ...params, date: dayjs(String(params.date)).format('LL') } : params;
  return (
    <Suspense fallback={null}>
      <div className={styles.banners}>
        {banners.map((b) => (
          <Alert key={b.id} type={b.type} showIcon title={t(b.text, format(b.params))} data-testid={`banner-${b.id}`} />
        ))}
      </div>
    </Suspense>
  );
}
