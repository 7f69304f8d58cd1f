import type { ReactNode } from 'react';
import { Tabs } from 'antd';
import { useActiveTab } from './useActiveTab.ts';

/** One tab of a tabbed page: `name` is what `?activeTab=` holds. */
export interface TabItem {
  name: string;
  /** The visible title (already translated). */
  title: ReactNode;
  render(): ReactNode;
}

export interface TabPageProps {
  items: TabItem[];
  /** The tab shown when neither the query nor the cookie names a known one; default the first. */
  defaultTab?: string;
  /** Called after the user switches tabs. */
  onChange?(name: string): void;
}

/**
 * A page of tabs (tabbed pages): the active tab comes from `?activeTab=`, else the
 * `activeTab` cookie, else the default; only the active tab is rendered.
 */
export function TabPage({ items, defaultTab, onChange }: TabPageProps) {
  const names = items.map((i) => i.name);
  const [active, setActive] = useActiveTab(names, defaultTab ?? names[0] ?? '');
  return (
    <Tabs
      activeKey={active}
      destroyOnHidden
      data-testid="tab-page"
      onChange={(k) => {
        setActive(k);
        onChange?.(k);
      }}
      items={items.map((i) => ({ key: i.name, label: i.title, children: i.name === active ? i.render() : null }))}
    />
  );
}
