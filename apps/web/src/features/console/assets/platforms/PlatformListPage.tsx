import { useTranslation } from 'react-i18next';
import { ResourceList } from '../../../../resource/ResourceList.tsx';
import { useResourcePaths } from '../../../../resource/resourcePaths.ts';
import { TabPage } from '../../../../resource/TabPage.tsx';
import { categoryOptions } from './platformChoices.ts';
import { PLATFORMS_URL } from './platformRoute.tsx';
import { platformPages } from './platformPages.tsx';

/** Platforms by category: one tab per category; Create starts in the tab's category. */
export function PlatformListPage() {
  const { i18n } = useTranslation();
  const paths = useResourcePaths();
  const items = categoryOptions(i18n.language).map((c) => ({
    name: c.value,
    title: c.label,
    render: () => (
      <ResourceList
        key={c.value}
        url={PLATFORMS_URL}
        extraQuery={{ category: c.value }}
        paths={paths ? { ...paths, create: `${paths.create}?category=${c.value}` } : undefined}
        {...platformPages.list}
      />
    ),
  }));
  return (
    <div data-testid="platform-list-page">
      <TabPage items={items} />
    </div>
  );
}
