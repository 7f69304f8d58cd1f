// docs/architecture.md is the map of the code; this test fails when the map and the code disagree.
//
// The convention the map follows:
// - Section "## Server modules" has one bullet per directory of apps/server/src/modules, starting
//   with its path in backticks, `modules/<name>/`, in the order of MODULE_ORDER (eslint.layers.js).
// - Section "## Console areas" has one bullet per directory of apps/web/src/features and of
//   apps/web/src/entries, starting with `features/<name>/` or `entries/<name>/` in backticks.
// - Anywhere in the map, a backticked path naming `modules/<name>`, `features/<name>` or
//   `entries/<name>` (alone or followed by `/`) names a directory that exists, and a backticked
//   path below a known root (apps/, packages/, docs/, scripts/, bench/, or a server or console
//   layer such as http/ or lib/) names a file or directory that exists.
// - Every Markdown link to a `*.md` file resolves (relative to docs/), every other docs/*.md is
//   linked from the map, and the map stays under MAX_LINES lines: it is read in twenty minutes,
//   the detail lives in the linked documents.
// - Code comments that cite a document's section as `docs/<file>.md, "<Section>"` (or with the
//   section in parentheses) cite a heading that exists in that document.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MODULE_ORDER } from '../eslint.layers.js';

const root = path.resolve(import.meta.dirname, '..');
const docsDir = path.join(root, 'docs');
const mapText = readFileSync(path.join(docsDir, 'architecture.md'), 'utf8');
const MAX_LINES = 450;

const dirsOf = (rel) =>
  readdirSync(path.join(root, rel), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();

/** The body of a `## <title>` section, up to the next heading of level 2. */
function section(text, title) {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${title}`);
  if (start < 0) throw new Error(`docs/architecture.md has no section "## ${title}"`);
  const end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** Names of the bullets starting with `<prefix>/<name>/` in backticks, in order. */
const bulletNames = (text, prefix) =>
  [...text.matchAll(new RegExp(`^- \`${prefix}/([\\w.-]+)/\``, 'gm'))].map((m) => m[1]);

/** Every `prefix/<name>` named in a backticked span, where `<name>` ends the span or is followed by `/`. */
function namedIn(text, prefix) {
  const names = new Set();
  for (const [, span] of text.matchAll(/`([^`\n]+)`/g))
    for (const m of span.matchAll(new RegExp(`(?<![\\w-])${prefix}/([\\w-]+)(?=/|$)`, 'g'))) names.add(m[1]);
  return [...names].sort();
}

/** A document's headings; a citation names one whole, or up to its parenthesis ("Tickets" for "Tickets (`modules/tickets/`)"). */
function headings(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => /^#{1,6} /.test(l))
    .map((l) => l.replace(/^#+ /, '').trim());
}

const AREAS = [
  { prefix: 'features', dir: 'apps/web/src/features' },
  { prefix: 'entries', dir: 'apps/web/src/entries' },
];

describe('docs/architecture.md, the map', () => {
  it(`stays under ${MAX_LINES} lines`, () => {
    expect(mapText.split('\n').length).toBeLessThan(MAX_LINES);
  });

  it('has a line for every server module, none for a module that does not exist, in MODULE_ORDER', () => {
    const modules = dirsOf('apps/server/src/modules');
    const listed = bulletNames(section(mapText, 'Server modules'), 'modules');
    expect([...listed].sort()).toEqual(modules);
    expect(listed).toEqual(MODULE_ORDER);
    for (const name of namedIn(mapText, 'modules')) expect(modules, `modules/${name}`).toContain(name);
  });

  for (const { prefix, dir } of AREAS)
    it(`has a line for every console ${prefix === 'features' ? 'area' : 'entry'} (${dir}), none for one that does not exist`, () => {
      const existing = dirsOf(dir);
      const listed = bulletNames(section(mapText, 'Console areas'), prefix);
      expect([...listed].sort()).toEqual(existing);
      for (const name of namedIn(mapText, prefix)) expect(existing, `${prefix}/${name}`).toContain(name);
    });

  it('names only paths that exist', () => {
    // Where a path relative to a layer may live: the server's and the console's sources, then the repository.
    const bases = ['', 'apps/server/src', 'apps/web/src', 'apps/server', 'apps/web'];
    const rooted =
      /^(apps|packages|docs|scripts|bench|platform|http|resource|modules|app|shell|features|entries|lib|e2e|test-support)\//;
    // Made by the build, absent from a fresh checkout.
    const generated = new Set(['apps/web/dist']);
    const missing = [];
    for (const [, span] of mapText.matchAll(/`([^`\n]+)`/g)) {
      if (!rooted.test(span) || /[\s<>*{}|]/.test(span) || generated.has(span)) continue;
      if (!bases.some((b) => existsSync(path.join(root, b, span)))) missing.push(span);
    }
    expect(missing).toEqual([]);
  });

  it('links only documents that exist', () => {
    const links = [...mapText.matchAll(/\]\(([^)#\s]+\.md)(#[^)]*)?\)/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(existsSync(path.join(docsDir, link)), link).toBe(true);
    // Every area document in docs/ is reachable from the map.
    const docs = readdirSync(docsDir).filter((f) => f.endsWith('.md') && f !== 'architecture.md');
    for (const doc of docs) expect(links, `docs/${doc} is not linked from the map`).toContain(doc);
  });
});

describe('citations of the docs in code comments', () => {
  // The repository's own sources (no dependencies, builds or test output).
  const SKIP = new Set(['node_modules', 'dist', '.builds', '.git', '.tmp', 'coverage']);
  function* sources(dir) {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (SKIP.has(e.name)) continue;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) yield* sources(full);
      else if (/\.(ts|tsx|js|mjs)$/.test(e.name) && statSync(full).size < 1_000_000) yield full;
    }
  }
  const files = [
    ...['apps', 'packages', 'scripts', 'bench'].flatMap((d) => [...sources(path.join(root, d))]),
    ...readdirSync(root)
      .filter((f) => /\.(js|ts|mjs)$/.test(f))
      .map((f) => path.join(root, f)),
  ].filter((f) => f !== fileURLToPath(import.meta.url));

  it('name documents and sections that exist', () => {
    const broken = [];
    let cited = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/docs\/([\w-]+\.md)(?:[,:]?\s*\(?"([^"\n]+)")?/g)) {
        cited++;
        const [, doc, title] = m;
        const where = `${path.relative(root, file)}: docs/${doc}${title ? ` "${title}"` : ''}`;
        const target = path.join(docsDir, doc);
        if (!existsSync(target)) broken.push(where);
        else if (title && !headings(target).some((h) => h === title || h.startsWith(`${title} (`))) broken.push(where);
      }
    }
    expect(cited).toBeGreaterThan(0);
    expect(broken).toEqual([]);
  });
});
