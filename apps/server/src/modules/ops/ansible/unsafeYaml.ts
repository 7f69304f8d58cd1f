/**
 * Writes data as YAML for Ansible with every string tagged `!unsafe`, so Ansible never renders a
 * value as a Jinja template: a password, a command or a job parameter containing `{{ ... }}` stays
 * text and cannot run a lookup on the Gatehouse host. Strings are JSON-escaped, which is valid YAML
 * in double quotes.
 */
type Value = string | number | boolean | null | undefined | Value[] | { [key: string]: Value };

function scalar(v: string | number | boolean | null | undefined): string {
  if (typeof v === 'string') return `!unsafe ${JSON.stringify(v)}`;
  if (v === null || v === undefined) return 'null';
  return String(v);
}

function key(k: string): string {
  return JSON.stringify(k);
}

function lines(v: Value, indent: string): string[] {
  if (Array.isArray(v)) {
    if (!v.length) return [`${indent}[]`];
    return v.flatMap((item) => {
      const inner = lines(item, indent + '  ');
      return [`${indent}- ${inner[0]!.trimStart()}`, ...inner.slice(1)];
    });
  }
  if (v && typeof v === 'object') {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    if (!entries.length) return [`${indent}{}`];
    return entries.flatMap(([k, x]) =>
      x && typeof x === 'object' && (Array.isArray(x) ? x.length : Object.keys(x).length)
        ? [`${indent}${key(k)}:`, ...lines(x, indent + '  ')]
        : [`${indent}${key(k)}: ${Array.isArray(x) ? '[]' : x && typeof x === 'object' ? '{}' : scalar(x as string)}`],
    );
  }
  return [`${indent}${scalar(v)}`];
}

export function unsafeYaml(v: Value): string {
  return lines(v, '').join('\n') + '\n';
}

export type YamlValue = Value;
