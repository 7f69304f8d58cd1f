/**
 * The HTML a site message may carry: the server cleans stored HTML with it
 * (apps/server/src/modules/notifications/sanitize.ts) and the console cleans it again before
 * showing it (apps/web/src/shell/messages/sanitizeHtml.ts). Links are the only elements with
 * attributes, and only to these schemes.
 */
export const MESSAGE_HTML_TAGS = [
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
] as const;

export const MESSAGE_LINK_SCHEMES = ['http', 'https', 'mailto'] as const;
