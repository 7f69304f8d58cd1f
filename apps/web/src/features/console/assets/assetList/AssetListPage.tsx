import { useQuery } from '@tanstack/react-query';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { ASSET_CATEGORIES, assetsApiPath, type Language } from '@gatehouse/contract';
import { http } from '../../../../lib/http.ts';
import { useAppStore } from '../../../../lib/appStore.ts';
import { errorMessage } from '../../../../resource/errorMessage.ts';
import { TabPage } from '../../../../resource/TabPage.tsx';
import { AssetTreeTable } from './AssetTreeTable.tsx';

interface Category {
  value: string;
  label: string;
}

/** The list API of a tab: `assets/` for All, else the category's own endpoint. */
export const listUrlOf = (category?: string) => assetsApiPath(category);

/** `/console/assets/assets/`: "All" plus one tab per category, each the node tree beside the asset table. */
export function AssetListPage() {
  const { t, i18n } = useTranslation();
  // The startup sequence loaded the categories (same endpoint, same language): the page starts from
  // them instead of asking again and drawing its tabs twice while its first rows come.
  const loaded = useAppStore((s) => s.categories);
  const categories = useQuery({
    queryKey: ['asset-categories'],
    queryFn: () => http.get<Category[]>('/api/v1/assets/categories/'),
    initialData: loaded.length ? loaded : undefined,
  });
  // The tabs show at once with the known categories (the page does not wait for the list of
  // categories); the server's list and labels replace them when it arrives.
  const lang = (['en', 'zh', 'ja'].includes(i18n.language) ? i18n.language : 'en') as Language;
  const known = categories.data ?? ASSET_CATEGORIES.map((c) => ({ value: c.value, label: c.label[lang] }));
  const items = [
    { name: 'all', title: t('assetList.tab.all'), render: () => <AssetTreeTable key="all" url={listUrlOf()} /> },
    ...known.map((c) => ({
      name: c.value,
      title: c.label,
      render: () => <AssetTreeTable key={c.value} url={listUrlOf(c.value)} category={c.value} />,
    })),
  ];
  return (
    <div data-testid="asset-list-page">
      {categories.error && (
        <Alert type="error" showIcon title={errorMessage(categories.error, t)} style={{ marginBottom: 12 }} />
      )}
      <TabPage items={items} defaultTab="all" />
    </div>
  );
}
