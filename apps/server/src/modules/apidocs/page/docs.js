/* global document, location, window */
// The browsable page of /api/docs/: reads openapi.json and lists every operation. Served as a
// file (never inline) so the page runs under a script-src 'self' Content-Security-Policy; text
// goes in through textContent only.
'use strict';

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') node.className = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== undefined && c !== null) node.append(c);
  return node;
}

function refName(schema) {
  return schema && schema.$ref ? schema.$ref.split('/').pop() : undefined;
}

function typeText(s) {
  if (!s) return '';
  const name = refName(s);
  if (name) return name;
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.oneOf) return s.oneOf.map(typeText).join(' | ');
  if (s.allOf) return s.allOf.map(typeText).join(' & ');
  if (s.type === 'array') return `${typeText(s.items)}[]`;
  if (Array.isArray(s.type)) return s.type.join(' | ');
  return s.type || 'any';
}

function schemaLink(s) {
  const name = refName(s) || (s && s.items && refName(s.items));
  const text = typeText(s);
  return name ? el('a', { href: `#schema-${name}` }, text) : el('code', {}, text);
}

function paramTable(params) {
  const body = params.map((p) =>
    el(
      'tr',
      {},
      el('td', {}, el('code', {}, p.name)),
      el('td', {}, p.in),
      el('td', {}, p.required ? 'yes' : ''),
      el('td', {}, typeText(p.schema)),
      el('td', {}, p.description || ''),
    ),
  );
  return el(
    'table',
    {},
    el(
      'thead',
      {},
      el('tr', {}, ...['Parameter', 'In', 'Required', 'Type', 'Description'].map((h) => el('th', {}, h))),
    ),
    el('tbody', {}, ...body),
  );
}

function contentList(content) {
  return el(
    'ul',
    {},
    ...Object.entries(content || {}).map(([type, media]) =>
      el('li', {}, el('code', {}, type), ' ', schemaLink(media.schema)),
    ),
  );
}

function operation(path, method, op, doc) {
  const searchText = [path, method, op.summary, (op.tags || []).join(' '), JSON.stringify(op['x-permission'] || '')]
    .join(' ')
    .toLowerCase();
  const head = el(
    'summary',
    {},
    el('span', { class: `method m-${method}` }, method.toUpperCase()),
    ' ',
    el('code', { class: 'path' }, path),
    ' ',
    el('span', { class: 'summary' }, op.summary || ''),
  );
  const node = el('details', { class: 'op' }, head);
  node.dataset.search = searchText;
  // The body is built when first opened: a few hundred operations stay light.
  node.addEventListener('toggle', () => {
    if (node.open && node.children.length === 1) node.append(operationBody(op, doc));
  });
  return node;
}

function operationBody(op, doc) {
  const body = el('div', { class: 'body' });
  if (op.description) body.append(el('p', {}, op.description));
  if (op.security && op.security.length === 0) body.append(el('p', { class: 'note' }, 'No sign-in needed.'));
  if (op.parameters && op.parameters.length) body.append(paramTable(op.parameters));
  if (op.requestBody) body.append(el('h4', {}, 'Request body'), contentList(op.requestBody.content));
  const responses = Object.entries(op.responses || {}).map(([code, r]) => {
    const resolved = r.$ref ? doc.components.responses[refName(r)] : r;
    return el(
      'li',
      {},
      el('code', {}, code),
      ' ',
      resolved.description || '',
      resolved.content ? contentList(resolved.content) : '',
    );
  });
  body.append(el('h4', {}, 'Responses'), el('ul', {}, ...responses));
  return body;
}

function schemaTable(s) {
  const rows = Object.entries(s.properties || {}).map(([field, p]) => {
    const flags = [
      (s.required || []).includes(field) ? 'required' : '',
      p.readOnly ? 'read-only' : '',
      p.writeOnly ? 'write-only' : '',
      p.maxLength ? `max ${p.maxLength}` : '',
    ].filter(Boolean);
    return el(
      'tr',
      {},
      el('td', {}, el('code', {}, field)),
      el('td', {}, p.title || ''),
      el('td', {}, typeText(p)),
      el('td', {}, flags.join(', ')),
      el('td', {}, p.description || ''),
    );
  });
  return rows.length
    ? el(
        'table',
        {},
        el('thead', {}, el('tr', {}, ...['Field', 'Label', 'Type', '', 'Description'].map((h) => el('th', {}, h)))),
        el('tbody', {}, ...rows),
      )
    : el('pre', {}, JSON.stringify(s, null, 2));
}

function schemaSection(name, s) {
  const node = el(
    'details',
    { class: 'op', id: `schema-${name}` },
    el('summary', {}, el('code', {}, name), ' ', s.title || ''),
  );
  node.addEventListener('toggle', () => {
    if (node.open && node.children.length === 1) node.append(schemaTable(s));
  });
  return node;
}

/** A link to #schema-X opens that schema. */
function openTarget() {
  const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (target && target.tagName === 'DETAILS') target.open = true;
}

function render(doc) {
  document.getElementById('title').textContent = `${doc.info.title} ${doc.info.version}`;
  document.getElementById('description').textContent = doc.info.description || '';
  const content = document.getElementById('content');
  content.replaceChildren();
  const byTag = new Map();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = (op.tags && op.tags[0]) || 'other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag).push(operation(path, method, op, doc));
    }
  }
  for (const tag of [...byTag.keys()].sort()) {
    content.append(el('section', { class: 'tag' }, el('h2', {}, tag), ...byTag.get(tag)));
  }
  const schemas = Object.entries(doc.components.schemas || {}).map(([n, s]) => schemaSection(n, s));
  content.append(el('section', { class: 'tag' }, el('h2', {}, 'Schemas'), ...schemas));
  window.addEventListener('hashchange', openTarget);
  openTarget();
  const filter = document.getElementById('filter');
  filter.addEventListener('input', () => {
    const q = filter.value.trim().toLowerCase();
    for (const op of content.querySelectorAll('details.op[data-search]'))
      op.hidden = Boolean(q) && !op.dataset.search.includes(q);
  });
}

function showError(status) {
  const content = document.getElementById('content');
  const login = `/core/auth/login/?next=${encodeURIComponent(location.pathname)}`;
  content.replaceChildren(
    status === 401
      ? el(
          'p',
          { class: 'note' },
          'The API description is for signed-in users. ',
          el('a', { href: login }, 'Sign in'),
          ' and come back.',
        )
      : el('p', { class: 'note' }, `The API description could not be loaded (${status}).`),
  );
}

fetch('openapi.json', { credentials: 'same-origin', headers: { Accept: 'application/json' } })
  .then((res) => (res.ok ? res.json().then(render) : showError(res.status)))
  .catch(() => showError('network error'));
