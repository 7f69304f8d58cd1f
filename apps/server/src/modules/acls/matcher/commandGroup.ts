/**
 * Command groups: `type = command` holds plain commands one per line, `type = regex` one regular
 * expression per line; `ignore_case` (default true) compares without case. A command is caught
 * when the pattern is found anywhere in it (the gateway checks each command line as typed).
 *
 * Plain commands become a regex as in the original (CommandGroup.construct_command_regex): runs of
 * whitespace collapse to one, the line is escaped, each space becomes `\s+`, and the line is
 * word-anchored with `\b` so `rm` does not catch `rmdir`. Two of the original's traps are not
 * reproduced: it anchors only single-word lines (so `rm -rf` also caught `xrm -rf`), and it put
 * `\b` in front of a line starting with a non-word character (so `./evil` could never match after
 * a space). Here an anchor goes on a side only when that side is a word character.
 * A regex group's lines are alternatives (the original used the whole text as one regex, so a
 * second line was never usable).
 */
export type CommandGroupType = 'command' | 'regex';

export interface CommandGroupLike {
  id?: string;
  name?: string;
  type: CommandGroupType;
  content: string;
  ignore_case: boolean;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
const isWord = (ch: string | undefined) => ch !== undefined && /\w/.test(ch);

function lines(content: string): string[] {
  return content
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

/** The regex source of one plain command line. */
export function plainCommandRegex(line: string): string {
  const cmd = line.trim().replace(/\s+/g, ' ');
  if (!cmd) return '';
  const body = cmd.split(' ').map(escapeRe).join('\\s+');
  return `${isWord(cmd[0]) ? '\\b' : ''}${body}${isWord(cmd[cmd.length - 1]) ? '\\b' : ''}`;
}

/** The pattern of a group, as the gateway receives it (`pattern` in the connection token). */
export function groupPattern(g: Pick<CommandGroupLike, 'type' | 'content'>): string {
  const parts = lines(g.content).map((l) => (g.type === 'command' ? plainCommandRegex(l) : `(?:${l})`));
  return parts.join('|');
}

/**
 * Whether a regex repeats a group that itself repeats (`(a+)+`, `(\w*\s?)*`): JavaScript's
 * backtracking engine can take exponential time on such a pattern, so one request could stall
 * the server. The gateway's engine does not need them; they are refused on save and in tests.
 */
export function hasNestedQuantifier(source: string): boolean {
  const stack: boolean[] = [];
  let quantifiedInside = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\') {
      i++;
      const next = source[i + 1];
      if (next && '*+{'.includes(next)) quantifiedInside = true;
      continue;
    }
    if (ch === '[') {
      while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
      const next = source[i + 1];
      if (next && '*+{'.includes(next)) quantifiedInside = true;
      continue;
    }
    if (ch === '(') {
      stack.push(quantifiedInside);
      quantifiedInside = false;
      continue;
    }
    if (ch === ')') {
      const inner = quantifiedInside;
      quantifiedInside = stack.pop() ?? false;
      const q = source[i + 1];
      if (q && '*+{'.includes(q)) {
        if (inner) return true;
        quantifiedInside = true;
      } else if (inner) quantifiedInside = true;
      continue;
    }
    if ('*+{'.includes(ch) && i > 0) quantifiedInside = true;
  }
  return false;
}

/** The first line whose regex does not compile or could run away, with why; undefined when all are fine. */
export function invalidRegexLine(content: string): { line: string; error: string; nested?: true } | undefined {
  for (const line of lines(content)) {
    try {
      new RegExp(line);
    } catch (e) {
      return { line, error: (e as Error).message };
    }
    if (hasNestedQuantifier(line)) return { line, error: 'nested quantifier', nested: true };
  }
  return undefined;
}

const compiled = new Map<string, RegExp | null>();

function regexOf(g: CommandGroupLike): RegExp | null {
  const key = `${g.type}\u0000${g.ignore_case ? 'i' : ''}\u0000${g.content}`;
  if (!compiled.has(key)) {
    const source = groupPattern(g);
    let re: RegExp | null = null;
    try {
      re = source ? new RegExp(source, g.ignore_case ? 'i' : '') : null;
    } catch {
      re = null;
    }
    if (compiled.size > 1000) compiled.clear();
    compiled.set(key, re);
  }
  return compiled.get(key)!;
}

/** The text of the command the group catches, or undefined when it does not catch it. */
export function matchCommand(g: CommandGroupLike, command: string): string | undefined {
  const re = regexOf(g);
  const found = re?.exec(command);
  return found ? found[0] : undefined;
}
