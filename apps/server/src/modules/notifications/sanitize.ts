import sanitizeHtml from 'sanitize-html';
import { MESSAGE_HTML_TAGS, MESSAGE_LINK_SCHEMES } from '@gatehouse/contract';

/**
 * Site-message HTML leaves through an allow-list (stored HTML may come from any sender): simple
 * formatting, lists, tables, and links to http(s)/mailto that open safely. Everything else,
 * scripts, styles, event attributes and other URL schemes included, is removed.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...MESSAGE_HTML_TAGS],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'] },
  allowedSchemes: [...MESSAGE_LINK_SCHEMES],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
};

export function sanitizeMessageHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/** Escapes text for HTML built by the server (system messages). */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
