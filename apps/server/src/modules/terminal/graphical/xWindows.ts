import { execFile } from 'node:child_process';

/**
 * Whether a top-level window whose title starts with `title` is viewable on the X display of
 * `env.DISPLAY`. Until a program maps its window, keys and clicks put on the display go to the
 * root window and are lost. Asked with `xwininfo` (x11-utils), as an argument list.
 */
export function windowShown(env: NodeJS.ProcessEnv, title: string): Promise<boolean> {
  const xwininfo = (args: string[]) =>
    new Promise<string>((resolve) =>
      execFile('xwininfo', args, { env, timeout: 5_000 }, (err, out) => resolve(err ? '' : out)),
    );
  return xwininfo(['-root', '-children']).then(async (tree) => {
    const ids = [...tree.matchAll(/^\s+(0x[0-9a-f]+) "([^"\n]*)"/gm)]
      .filter((m) => m[2]!.startsWith(title))
      .map((m) => m[1]!);
    for (const id of ids) if (/Map State: IsViewable/.test(await xwininfo(['-id', id]))) return true;
    return false;
  });
}
