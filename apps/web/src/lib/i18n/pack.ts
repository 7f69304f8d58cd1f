import type { Locale } from 'antd/es/locale';

/**
 * Everything one language brings: the console catalogue (`locales/<lang>/<namespace>.json`, keys used
 * as `namespace.key`), antd's texts and dayjs's locale name. Each language is its own chunk
 * (`locales/<lang>.ts`), so a page loads only the language it shows.
 */
export interface LanguagePack {
  catalogue: Record<string, Record<string, unknown>>;
  antd: Locale;
  dayjs: string;
}

/** The catalogue from one language's namespace files (`./<lang>/<namespace>.json`). */
export function catalogueOf(
  files: Record<string, { default: Record<string, unknown> }>,
): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [file, mod] of Object.entries(files)) {
    const m = /\/([\w-]+)\.json$/.exec(file);
    if (m) out[m[1]!] = mod.default;
  }
  return out;
}
