/**
 * The tags bar of the console: visited pages as tags. Affix tags cannot be closed; closing the
 * active tag moves to the last remaining one, else home.
 */
export interface VisitedTag {
  /** Pathname; one tag per page. */
  path: string;
  /** Pathname with the query, where a click on the tag goes. */
  fullPath: string;
  /** Translation key of the page title. */
  title: string;
  affix: boolean;
}

export const TAGS_MENU_WIDTH = 105;
export const REDIRECT_PREFIX = '/redirect';

/** Adds a visited page, or refreshes the query of its tag. */
export function addTag(tags: readonly VisitedTag[], tag: VisitedTag): VisitedTag[] {
  const i = tags.findIndex((t) => t.path === tag.path);
  if (i < 0) return [...tags, tag];
  if (tags[i]!.fullPath === tag.fullPath && tags[i]!.title === tag.title) return tags as VisitedTag[];
  return tags.map((t, j) => (j === i ? { ...t, fullPath: tag.fullPath, title: tag.title } : t));
}

/** Affix tags go first and stay; visited ones keep their order. */
export function withAffix(tags: readonly VisitedTag[], affix: readonly VisitedTag[]): VisitedTag[] {
  const missing = affix.filter((a) => !tags.some((t) => t.path === a.path));
  return missing.length ? [...missing, ...tags] : (tags as VisitedTag[]);
}

export function closeTag(tags: readonly VisitedTag[], path: string): VisitedTag[] {
  return tags.filter((t) => t.path !== path || t.affix);
}

export function closeOtherTags(tags: readonly VisitedTag[], path: string): VisitedTag[] {
  return tags.filter((t) => t.affix || t.path === path);
}

export function closeAllTags(tags: readonly VisitedTag[]): VisitedTag[] {
  return tags.filter((t) => t.affix);
}

/** Where to go after closing: nowhere when the active page is still open, else the last tag, else home. */
export function afterClose(remaining: readonly VisitedTag[], activePath: string): string | undefined {
  if (remaining.some((t) => t.path === activePath)) return undefined;
  return remaining.at(-1)?.fullPath ?? '/';
}

/** Refresh goes through the redirect page, which comes straight back and so mounts the page anew. */
export function refreshPath(fullPath: string): string {
  return `${REDIRECT_PREFIX}${fullPath}`;
}

/** The page a redirect path leads back to. */
export function redirectTarget(pathname: string, search: string): string {
  const rest = pathname.startsWith(REDIRECT_PREFIX) ? pathname.slice(REDIRECT_PREFIX.length) : pathname;
  return `${rest || '/'}${search}`;
}
