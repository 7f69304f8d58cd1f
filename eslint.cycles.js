// `gatehouse/no-cycle`: no import cycle between the project's own files (docs/architecture.md,
// "Enforcement"). It does what import-x/no-cycle did for us at a fraction of the cost: the files an
// import leads to are read once per process (TypeScript's parser, no type-check) and kept while their
// modification time holds, instead of being parsed again for every file linted. Relative imports only
// (packages are outside the project's own graph); type-only imports and exports are erased at run
// time and cannot make a cycle, so they do not count; dynamic `import()` does not either (it is how a
// cycle is broken on purpose: lazy routes).
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs'];
/** How long a file's modification time is trusted before it is looked at again (editors keep ESLint running). */
const RECHECK_MS = 1000;

/** file → { mtimeMs, checkedAt, deps: resolved absolute paths of its runtime imports } */
const graph = new Map();
/** path → whether it is a file, for the resolver's candidates (same lifetime rule). */
const exists = new Map();

function isFile(p) {
  const hit = exists.get(p);
  const now = Date.now();
  if (hit && now - hit.at < RECHECK_MS) return hit.file;
  let file = false;
  try {
    file = fs.statSync(p).isFile();
  } catch {
    file = false;
  }
  exists.set(p, { at: now, file });
  return file;
}

/** The file a relative specifier names from `from`, as Node with `.ts` extensions and index files would find it. */
export function resolveImport(from, spec) {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => path.join(base, `index${e}`))];
  return candidates.find(isFile) ?? null;
}

const typeOnlyImport = (node) => {
  const clause = node.importClause;
  if (!clause) return false; // `import './side-effect.ts'` runs the file
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return (
    !clause.name &&
    named !== undefined &&
    ts.isNamedImports(named) &&
    named.elements.length > 0 &&
    named.elements.every((e) => e.isTypeOnly)
  );
};

/** The runtime imports of a source text (TypeScript's parser: comments and strings cannot fool it). */
function importsOfText(file, text) {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    false,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const deps = [];
  for (const st of source.statements) {
    let spec;
    if (ts.isImportDeclaration(st) && !typeOnlyImport(st)) spec = st.moduleSpecifier;
    else if (ts.isExportDeclaration(st) && !st.isTypeOnly && st.moduleSpecifier) {
      const named = st.exportClause;
      const allTypes =
        named && ts.isNamedExports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
      if (!allTypes) spec = st.moduleSpecifier;
    }
    if (spec && ts.isStringLiteral(spec)) {
      const target = resolveImport(file, spec.text);
      if (target) deps.push(target);
    }
  }
  return deps;
}

function depsOf(file) {
  const now = Date.now();
  const hit = graph.get(file);
  if (hit && now - hit.checkedAt < RECHECK_MS) return hit.deps;
  let mtimeMs;
  try {
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch {
    graph.delete(file);
    return [];
  }
  if (hit && hit.mtimeMs === mtimeMs) {
    hit.checkedAt = now;
    return hit.deps;
  }
  const deps = importsOfText(file, fs.readFileSync(file, 'utf8'));
  graph.set(file, { mtimeMs, checkedAt: now, deps });
  return deps;
}

/** A chain of files from `start` back to `target`, or null when none leads there. */
function pathBack(start, target) {
  const seen = new Set([start]);
  const stack = [[start, [start]]];
  while (stack.length) {
    const [file, chain] = stack.pop();
    for (const next of depsOf(file)) {
      if (next === target) return chain;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push([next, [...chain, next]]);
    }
  }
  return null;
}

/**
 * Strongly connected components of the graph on disk, reached from the files asked about: two files
 * share one exactly when each leads to the other. Dropped with the files' modification times, so one
 * walk answers every import of every file linted in the same second.
 */
let components = { at: 0, of: new Map() };

function componentOf(file) {
  const now = Date.now();
  if (now - components.at >= RECHECK_MS) components = { at: now, of: new Map() };
  const of = components.of;
  if (!of.has(file)) {
    // Tarjan's algorithm from `file` over files not yet placed.
    const index = new Map();
    const low = new Map();
    const stack = [];
    const onStack = new Set();
    let next = 0;
    const visit = (v) => {
      index.set(v, next);
      low.set(v, next);
      next += 1;
      stack.push(v);
      onStack.add(v);
      for (const w of depsOf(v)) {
        if (of.has(w)) continue;
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v), low.get(w)));
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
      }
      if (low.get(v) === index.get(v)) {
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          of.set(w, v);
        } while (w !== v);
      }
    };
    visit(file);
  }
  return of.get(file);
}

const sameSet = (a, b) => a.length === b.length && a.every((x) => b.includes(x));

const runtimeImport = (node) => {
  if (node.type === 'ImportDeclaration') {
    if (node.importKind === 'type') return false;
    if (node.specifiers.length === 0) return true;
    return !node.specifiers.every((s) => s.type === 'ImportSpecifier' && s.importKind === 'type');
  }
  if (node.type === 'ExportAllDeclaration') return node.source !== null && node.exportKind !== 'type';
  if (node.type === 'ExportNamedDeclaration')
    return (
      node.source !== null &&
      node.exportKind !== 'type' &&
      !(node.specifiers.length > 0 && node.specifiers.every((s) => s.exportKind === 'type'))
    );
  return false;
};

export const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycle between the project’s own files' },
    schema: [],
    messages: {
      cycle: 'Import cycle: {{chain}} imports this file again. Move what both need into a third file below them.',
    },
  },
  create(context) {
    const file = path.resolve(context.filename);
    const root = context.cwd;
    const imports = [];
    return {
      'ImportDeclaration, ExportAllDeclaration, ExportNamedDeclaration'(node) {
        if (!node.source || !runtimeImport(node)) return;
        const target = resolveImport(file, node.source.value);
        if (target && target !== file) imports.push({ node, target });
      },
      'Program:exit'() {
        // The text linted is the file on disk (the usual case): the components answer at once.
        // Otherwise (an editor's unsaved text, a test's source) each import is followed.
        const asOnDisk = sameSet(
          [...new Set(imports.map((i) => i.target))],
          depsOf(file).filter((d) => d !== file),
        );
        for (const { node, target } of imports) {
          if (asOnDisk && componentOf(target) !== componentOf(file)) continue;
          const chain = pathBack(target, file);
          if (chain)
            context.report({
              node,
              messageId: 'cycle',
              data: { chain: chain.map((f) => path.relative(root, f)).join(' → ') },
            });
        }
      },
    };
  },
};

export const cyclesPlugin = { rules: { 'no-cycle': noCycle } };
