/**
 * SQL text as the database proxies read it: a query's text split into its statements, and each
 * statement normalised for the command filter rules (comments removed, whitespace collapsed), so
 * `DROP` + line break + `DATABASE x`, `DROP/* x *\/DATABASE x` and `-- note` + newline + `DROP ...`
 * read as `DROP DATABASE x`. Quotes are respected: a `;` or `--` inside a string, a quoted name or
 * (PostgreSQL) a dollar-quoted body is text, not syntax. MySQL's executable comments
 * (`/*! ... *\/`, `/*!50000 ... *\/`, `/*M! ... *\/`) run on the server, so their content is kept.
 */
export type SqlDialect = 'mysql' | 'postgresql';

interface Piece {
  /** The statement's text as sent (trimmed). */
  text: string;
  /** Comments removed, whitespace outside quotes collapsed to one space, trimmed. */
  normalised: string;
}

/** Where a quoted run starting at `i` ends (the index after its closing quote), or the text's end. */
function quoteEnd(sql: string, i: number, dialect: SqlDialect): number {
  const q = sql[i]!;
  let j = i + 1;
  while (j < sql.length) {
    const c = sql[j]!;
    if (c === '\\' && dialect === 'mysql' && q !== '`') {
      j += 2;
      continue;
    }
    if (c === q) {
      if (sql[j + 1] === q) {
        j += 2;
        continue;
      }
      return j + 1;
    }
    j++;
  }
  return sql.length;
}

/** A PostgreSQL dollar quote's tag at `i` (`$$`, `$body$`), or undefined. */
function dollarTag(sql: string, i: number): string | undefined {
  const m = /^\$([A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*)?\$/.exec(sql.slice(i, i + 64));
  // `$1` is a parameter, not a quote: the tag may not start with a digit (the regex requires that).
  return m ? m[0] : undefined;
}

/** Where a block comment starting at `i` ends; PostgreSQL nests them. */
function blockEnd(sql: string, i: number, dialect: SqlDialect): number {
  let depth = 1;
  let j = i + 2;
  while (j < sql.length) {
    if (sql.startsWith('*/', j)) {
      depth--;
      j += 2;
      if (depth === 0) return j;
      continue;
    }
    if (dialect === 'postgresql' && sql.startsWith('/*', j)) {
      depth++;
      j += 2;
      continue;
    }
    j++;
  }
  return sql.length;
}

function lineCommentAt(sql: string, i: number, dialect: SqlDialect): boolean {
  if (dialect === 'mysql' && sql[i] === '#') return true;
  if (!sql.startsWith('--', i)) return false;
  // MySQL needs whitespace (or the end) after `--`; `1--1` is arithmetic there.
  if (dialect === 'mysql') return i + 2 >= sql.length || /\s/.test(sql[i + 2]!);
  return true;
}

/** A MySQL executable comment's opening length (`/*!`, `/*!50001`, `/*M!100100`), or 0. */
function executableOpen(sql: string, i: number): number {
  const m = /^\/\*M?!\d*/.exec(sql.slice(i, i + 16));
  return m ? m[0].length : 0;
}

/**
 * The statements of a query text, split at `;` outside quotes and comments. Statements that are
 * empty once comments are removed are dropped (a trailing `;`, a lone comment).
 */
export function splitStatements(sql: string, dialect: SqlDialect): Piece[] {
  const out: Piece[] = [];
  let start = 0;
  let norm = '';
  let space = false;
  const push = (s: string) => {
    if (space && norm) norm += ' ';
    space = false;
    norm += s;
  };
  const finish = (end: number) => {
    const text = sql.slice(start, end).trim();
    const normalised = norm.trim();
    if (normalised) out.push({ text, normalised });
    norm = '';
    space = false;
  };
  let i = 0;
  // Inside MySQL executable comments (their content is SQL); a `*/` closes the innermost.
  let executable = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (executable && sql.startsWith('*/', i)) {
      executable--;
      space = true;
      i += 2;
      continue;
    }
    if (c === "'" || c === '"' || (c === '`' && dialect === 'mysql')) {
      const end = quoteEnd(sql, i, dialect);
      push(sql.slice(i, end));
      i = end;
      continue;
    }
    if (c === '$' && dialect === 'postgresql') {
      const tag = dollarTag(sql, i);
      if (tag) {
        const close = sql.indexOf(tag, i + tag.length);
        const end = close < 0 ? sql.length : close + tag.length;
        push(sql.slice(i, end));
        i = end;
        continue;
      }
    }
    if (sql.startsWith('/*', i)) {
      const open = dialect === 'mysql' ? executableOpen(sql, i) : 0;
      if (open) {
        executable++;
        space = true;
        i += open;
        continue;
      }
      i = blockEnd(sql, i, dialect);
      space = true;
      continue;
    }
    if (lineCommentAt(sql, i, dialect)) {
      const nl = sql.indexOf('\n', i);
      i = nl < 0 ? sql.length : nl + 1;
      space = true;
      continue;
    }
    if (c === ';') {
      finish(i);
      i++;
      start = i;
      continue;
    }
    if (/\s/.test(c)) {
      space = true;
      i++;
      continue;
    }
    // A run of ordinary characters at once (the common case: keywords, names, numbers).
    let j = i + 1;
    while (j < sql.length && /[^\s'"`$/#;*-]/.test(sql[j]!)) j++;
    push(sql.slice(i, j));
    i = j;
  }
  finish(sql.length);
  return out;
}

/** One statement normalised (for a statement that cannot be split further, e.g. a prepared one). */
export function normaliseStatement(sql: string, dialect: SqlDialect): string {
  return splitStatements(sql, dialect)
    .map((p) => p.normalised)
    .join('; ');
}
