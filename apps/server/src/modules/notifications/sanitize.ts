import sanitizeHtml from 'sanitize-html';

/**
 * Site-message HTML leaves through an allow-list (stored HTML may come from any sender): simple
 * formatting, lists, tables, and links to http(s)/mailto that open safely. Everything else,
 * scripts, styles, event attributes and other URL schemes included, is removed.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'a',
    'b',
    'strong',
    'i',
    'em',
    'u',
    's',
    'p',
    'br',
    'hr',
    'ul',
    'ol',
    'li',
    'code',
    'pre',
    'span',
    'div',
    'blockquote',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'small',
  ],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
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
