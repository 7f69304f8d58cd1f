import type { AbstractNode, IconDefinition } from '@ant-design/icons-svg/es/types';

/**
 * The login page's DOM helpers: it is plain DOM on purpose (no React, antd or i18next in its first
 * load, see docs/console.md "Console loading").
 */
type Child = Node | string | null | undefined | false;
type Attrs = Record<string, string | number | boolean | undefined | null | EventListener>;

/** An element with attributes (`on<event>` attaches a listener; false/null/undefined are left out). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.slice(2).toLowerCase(), value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  el.append(...children.filter((c): c is Node | string => c !== null && c !== undefined && c !== false));
  return el;
}

const SVG = 'http://www.w3.org/2000/svg';

function svgNode(node: AbstractNode): SVGElement {
  const el = document.createElementNS(SVG, node.tag);
  for (const [k, v] of Object.entries(node.attrs)) el.setAttribute(k, v);
  for (const c of node.children ?? []) el.appendChild(svgNode(c));
  return el;
}

/** An Ant Design icon (its SVG data from @ant-design/icons-svg) the way antd renders it. */
export function icon(def: IconDefinition, className = ''): HTMLSpanElement {
  const svg = svgNode(def.icon as AbstractNode);
  for (const [k, v] of Object.entries({ width: '1em', height: '1em', fill: 'currentColor', 'aria-hidden': 'true' }))
    svg.setAttribute(k, v);
  return h('span', { class: `gh-icon ${className}`.trim(), role: 'img', 'aria-hidden': 'true' }, svg);
}
