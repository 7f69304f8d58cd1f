import { useEffect, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { type MenuProps } from 'antd';
import { LazyDropdown } from '../lib/LazyDropdown.tsx';
import { CloseOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PreparedRoute } from '../lib/routeTypes.ts';
import { flattenRoutes } from '../app/routeRegistry.ts';
import { viewOfPath } from '../app/views.ts';
import { useShellStore } from './shellStore.ts';
import {
  addTag,
  afterClose,
  closeAllTags,
  closeOtherTags,
  closeTag,
  REDIRECT_PREFIX,
  refreshPath,
  TAGS_MENU_WIDTH,
  withAffix,
  type VisitedTag,
} from './tags.ts';
import { useMatchedMeta, useVisibility } from './useShellContext.ts';
import { routeHiddenReason } from '@gatehouse/contract';
import styles from './Layout.module.css';

/** Affix tags of a view: its routes marked affix that the user may open. */
function useAffixTags(view: PreparedRoute): VisitedTag[] {
  const ctx = useVisibility();
  return useMemo(
    () =>
      flattenRoutes(view.children ?? [])
        .filter((r) => r.handle.affix && !routeHiddenReason(r.handle.resolved, ctx))
        .map((r) => ({
          path: r.handle.resolved.fullPath,
          fullPath: r.handle.resolved.fullPath,
          title: r.handle.title,
          affix: true,
        })),
    [view, ctx],
  );
}

/**
 * The tags bar: the visited pages of this view. Each closes with its ×, except affix
 * tags; the context menu refreshes or closes tags; closing the active tag moves to the last one.
 */
export function TagsBar({ view }: { view: PreparedRoute }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const matched = useMatchedMeta();
  const tags = useShellStore((s) => s.tags);
  const setTags = useShellStore((s) => s.setTags);
  const affix = useAffixTags(view);
  // Only a page's own title makes a tag (a view redirecting to its first page does not).
  const title = matched.at(-1)?.handle.title;
  const affixPaths = useMemo(() => new Set(affix.map((a) => a.path)), [affix]);

  useEffect(() => {
    setTags((current) => {
      const next = withAffix(current, affix);
      if (!title || pathname.startsWith(`${REDIRECT_PREFIX}/`)) return next;
      return addTag(next, { path: pathname, fullPath: `${pathname}${search}`, title, affix: affixPaths.has(pathname) });
    });
  }, [pathname, search, title, affix, affixPaths, setTags]);

  const viewName = view.handle.resolved.view;
  const shown = tags.filter((tag) => {
    const v = viewOfPath(tag.path);
    return v === viewName || v === '';
  });

  const apply = (remaining: VisitedTag[]) => {
    setTags(() => remaining);
    const target = afterClose(remaining, pathname);
    if (target) navigate(target);
  };
  const menu = (tag: VisitedTag): MenuProps['items'] => [
    {
      key: 'refresh',
      label: t('shell.tags.refresh'),
      onClick: () => navigate(refreshPath(tag.fullPath), { replace: true }),
    },
    ...(tag.affix
      ? []
      : [{ key: 'close', label: t('shell.tags.close'), onClick: () => apply(closeTag(tags, tag.path)) }]),
    {
      key: 'closeOthers',
      label: t('shell.tags.closeOthers'),
      onClick: () => {
        setTags((current) => closeOtherTags(current, tag.path));
        if (tag.path !== pathname) navigate(tag.fullPath);
      },
    },
    { key: 'closeAll', label: t('shell.tags.closeAll'), onClick: () => apply(closeAllTags(tags)) },
  ];

  return (
    <nav className={styles.tagsBar} aria-label={t('shell.tags.label')} data-testid="tags-bar">
      {shown.map((tag) => {
        const active = tag.path === pathname;
        return (
          <LazyDropdown
            key={tag.path}
            menu={{ items: menu(tag) }}
            trigger={['contextMenu']}
            styles={{ root: { width: TAGS_MENU_WIDTH } }}
            classNames={{ root: styles.tagsMenu }}
          >
            <span
              className={`${styles.tag} ${active ? styles.tagActive : ''}`}
              onClick={() => navigate(tag.fullPath)}
              data-testid="tag"
              data-path={tag.path}
              aria-current={active ? 'page' : undefined}
            >
              {t(tag.title)}
              {!tag.affix && (
                <span
                  className={styles.tagClose}
                  role="button"
                  aria-label={t('shell.tags.close')}
                  onClick={(e) => {
                    e.stopPropagation();
                    apply(closeTag(tags, tag.path));
                  }}
                >
                  <CloseOutlined />
                </span>
              )}
            </span>
          </LazyDropdown>
        );
      })}
    </nav>
  );
}
