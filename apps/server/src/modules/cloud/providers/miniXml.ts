/**
 * A small reader of the XML the EC2 query API answers: elements, text and the five entities; no
 * attributes are kept, no DTD, no external anything. Anything else (unbalanced tags, a DOCTYPE,
 * more than `MAX_DEPTH` levels) throws, and the caller reports "garbage".
 */
export interface XmlNode {
  name: string;
  children: XmlNode[];
  text: string;
}

const MAX_DEPTH = 64;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

const decode = (s: string) =>
  s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_m, e: string) =>
    e[0] === '#'
      ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
      : ENTITIES[e.toLowerCase()]!,
  );

export function parseXml(text: string): XmlNode {
  const root: XmlNode = { name: '#root', children: [], text: '' };
  const stack: XmlNode[] = [root];
  const tag = /<(\/?)([A-Za-z_][\w:.-]*)([^>]*?)(\/?)>|<\?[^>]*\?>|<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<!/g;
  let at = 0;
  for (let m = tag.exec(text); m; m = tag.exec(text)) {
    const top = stack[stack.length - 1]!;
    top.text += decode(text.slice(at, m.index));
    at = tag.lastIndex;
    if (m[0] === '<!') throw new Error('a DOCTYPE or declaration');
    if (m[5] !== undefined) top.text += m[5];
    if (!m[2]) continue;
    if (m[1]) {
      if (top.name !== m[2]) throw new Error(`</${m[2]}> closes <${top.name}>`);
      stack.pop();
    } else {
      const node: XmlNode = { name: m[2], children: [], text: '' };
      top.children.push(node);
      if (!m[4]) {
        stack.push(node);
        if (stack.length > MAX_DEPTH) throw new Error('too deep');
      }
    }
  }
  if (stack.length !== 1) throw new Error(`<${stack[stack.length - 1]!.name}> is not closed`);
  if (/</.test(text.slice(at))) throw new Error('a broken tag');
  if (root.children.length !== 1) throw new Error('not one document element');
  return root.children[0]!;
}

export const child = (n: XmlNode | undefined, name: string): XmlNode | undefined =>
  n?.children.find((c) => c.name === name);
export const items = (n: XmlNode | undefined): XmlNode[] => n?.children.filter((c) => c.name === 'item') ?? [];
export const textOf = (n: XmlNode | undefined, name: string): string => child(n, name)?.text.trim() ?? '';
