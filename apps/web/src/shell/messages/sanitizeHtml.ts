import { MESSAGE_HTML_TAGS, MESSAGE_LINK_SCHEMES } from '@gatehouse/contract';

/**
 * Message HTML comes sanitised from the server; the drawer cleans it again with the same kind of
 * allow-list before it is set as HTML: known tags only, links http/https/mailto only (opened in a
 * new tab, without opener), no attributes otherwise. Unknown elements keep their text.
 */
const TAGS = new Set<string>(MESSAGE_HTML_TAGS);
const DROP = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'template',
  'noscript',
  'svg',
  'math',
  'form',
  'input',
  'button',
  'textarea',
  'select',
]);
const SAFE_LINK = new RegExp(`^(${MESSAGE_LINK_SCHEMES.join('|')}):`, 'i');

function clean(node: Node, doc: Document): Node | null {
  if (node.nodeType === Node.TEXT_NODE) return doc.createTextNode(node.textContent ?? '');
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const el = node as Element;
  const tag = el.tagName.toLowerCase();
  if (DROP.has(tag)) return null;
  const children = [...el.childNodes].map((c) => clean(c, doc)).filter((c): c is Node => c !== null);
  if (!TAGS.has(tag)) {
    const frag = doc.createDocumentFragment();
    for (const c of children) frag.appendChild(c);
    return frag;
  }
  const out = doc.createElement(tag);
  if (tag === 'a') {
    const href = (el.getAttribute('href') ?? '').trim();
    if (SAFE_LINK.test(href)) {
      out.setAttribute('href', href);
      out.setAttribute('target', '_blank');
      out.setAttribute('rel', 'noopener noreferrer');
    }
  }
  for (const c of children) out.appendChild(c);
  return out;
}

export function sanitizeHtml(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const box = doc.createElement('div');
  for (const c of [...doc.body.childNodes]) {
    const cleaned = clean(c, doc);
    if (cleaned) box.appendChild(cleaned);
  }
  return box.innerHTML;
}
