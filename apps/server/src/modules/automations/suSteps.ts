import type ssh2 from 'ssh2';

/**
 * Reaching an account through `su` (docs/automations.md, "Reaching assets"): a shell of the account
 * it is switched from, the switch command with its password answered, then either the password
 * changed with the host's own `passwd` (its prompts answered) or the account's name read back.
 * Every wait has a limit, so a host that asks something unexpected ends the step instead of
 * hanging it. Passwords are typed at prompts only, never put on a command line.
 */
const WAIT_MS = 20_000;

interface Shell {
  send(text: string): void;
  /** Output after what was matched before, up to and including a match of `re`. */
  wait(re: RegExp, what: string): Promise<RegExpExecArray>;
  close(): void;
}

function openShell(client: ssh2.Client): Promise<Shell> {
  return new Promise((resolve, reject) => {
    client.shell({ term: 'dumb', cols: 200, rows: 40 }, { env: { LC_ALL: 'C', LANG: 'C' } }, (err, ch) => {
      if (err) return reject(err);
      let seen = '';
      let waiter: (() => void) | undefined;
      let closed = false;
      ch.on('data', (d: Buffer) => {
        seen = (seen + d.toString('utf8')).slice(-8000);
        waiter?.();
      });
      ch.stderr.on('data', (d: Buffer) => {
        seen = (seen + d.toString('utf8')).slice(-8000);
        waiter?.();
      });
      ch.on('close', () => {
        closed = true;
        waiter?.();
      });
      resolve({
        send: (text) => ch.write(text),
        wait: (re, what) =>
          new Promise((ok, fail) => {
            const timer = setTimeout(() => done(new Error(`no ${what} within ${WAIT_MS / 1000} s`)), WAIT_MS);
            const done = (e?: Error, m?: RegExpExecArray) => {
              clearTimeout(timer);
              waiter = undefined;
              if (m) {
                seen = seen.slice(m.index + m[0].length);
                ok(m);
              } else fail(e);
            };
            const check = () => {
              const m = re.exec(seen);
              if (m) done(undefined, m);
              else if (closed) done(new Error(`the shell ended before the ${what}: ${seen.trim().slice(-200)}`));
            };
            waiter = check;
            check();
          }),
        close: () => ch.close(),
      });
    });
  });
}

const PROMPT = /[#$>%]\s*$/;
const ASKED = /(assword[^:\n]*:\s*$)|(failure|incorrect|sorry|denied)|[#$>%]\s*$/i;
const REFUSED = /(failure|incorrect|sorry|denied)|[#$>%]\s*$/i;

/**
 * Runs `command` in `sh` (at its prompt): its password prompt, when it asks one, answered with
 * `password` (none known: refused); root switches without one. Answers whether it asked.
 */
async function switchIn(sh: Shell, command: string, password: string | undefined): Promise<boolean> {
  sh.send(`${command}\n`);
  const m = await sh.wait(ASKED, 'password prompt or prompt of the switch');
  if (!m[1]) return false;
  if (password === undefined) throw new Error(`${command} asks a password the vault does not have`);
  sh.send(`${password}\n`);
  // su empties what was typed ahead: the next line goes once a shell prompts (or su refused).
  await sh.wait(REFUSED, 'prompt after the switch');
  return true;
}

/** Switches with `command`, its prompt (if any) answered with `password`; then runs as the account. */
async function switchTo(
  client: ssh2.Client,
  command: string,
  password: string | undefined,
): Promise<{ sh: Shell; asked: boolean }> {
  const sh = await openShell(client);
  try {
    // The login shell's own prompt first: a switch without a password prompt ends at the next one.
    await sh.wait(PROMPT, 'prompt of the login shell');
    return { sh, asked: await switchIn(sh, command, password) };
  } catch (e) {
    sh.close();
    throw e;
  }
}

/** Who the shell runs as after the switch (the account's name read back), or why not. */
async function whoAmI(sh: Shell): Promise<string> {
  // The line typed shows "%s" where the answer shows the name, so only the answer matches.
  sh.send(`printf 'gh-%s-user\\n' "$(id -un)"\n`);
  const m = await sh.wait(/gh-([A-Za-z0-9_.-]+)-user/, 'answer of id');
  return m[1]!;
}

/**
 * A fresh switch to `username` with `password`; undefined when it opened, else why not. When the
 * switch asked nothing (the account switched from is root), the account switches to itself again,
 * which asks its password: the password is proved either way.
 */
export async function suLogin(client: ssh2.Client, username: string, password: string): Promise<string | undefined> {
  let sh: Shell | undefined;
  try {
    const first = await switchTo(client, `su - ${username}`, password);
    sh = first.sh;
    if (!first.asked && !(await switchIn(sh, `su - ${username}`, password)))
      return `su - ${username} did not ask the password`;
    const who = await whoAmI(sh);
    return who === username ? undefined : `su - ${username} failed`;
  } catch (e) {
    return (e as Error).message;
  } finally {
    sh?.close();
  }
}

/** Runs `line` in the account's shell after the switch; throws unless it exits 0. */
async function runSwitched(
  client: ssh2.Client,
  o: { username: string; command: string; switchPassword: string | undefined },
  line: string,
  what: string,
): Promise<void> {
  const { sh } = await switchTo(client, o.command, o.switchPassword);
  try {
    if ((await whoAmI(sh)) !== o.username) throw new Error(`${o.command} failed`);
    // The typed line shows "$?" where the answer shows the code, so only the answer matches.
    sh.send(`${line}; echo "gh-rc-$?-end"\n`);
    const m = await sh.wait(/gh-rc-(\d+)-end/, `answer of ${what}`);
    if (m[1] !== '0') throw new Error(`${what} ended with exit code ${m[1]}`);
  } finally {
    sh.close();
  }
}

/** Writes authorized_keys as the account itself after the switch (`line`: the key script with its arguments). */
export function suSetKey(
  client: ssh2.Client,
  o: { username: string; command: string; switchPassword: string | undefined; line: string },
): Promise<void> {
  return runSwitched(client, o, o.line, 'the authorized_keys script');
}

/**
 * Whether the account's authorized_keys holds the key (`quotedKey`: its line, shell-quoted), read
 * as the account after the switch; undefined when it does, else why not.
 */
export async function suHasKey(
  client: ssh2.Client,
  o: { username: string; command: string; switchPassword: string | undefined; quotedKey: string },
): Promise<string | undefined> {
  try {
    await runSwitched(client, o, `grep -qxF ${o.quotedKey} "$HOME/.ssh/authorized_keys"`, 'the key lookup');
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * Changes `username`'s password with `passwd` run as itself after the switch (`command` answered
 * with `switchPassword`); `passwd`'s prompts get the current password, then the new one twice.
 */
export async function suChangePassword(
  client: ssh2.Client,
  o: { username: string; command: string; switchPassword: string | undefined; current: string; next: string },
): Promise<void> {
  const { sh } = await switchTo(client, o.command, o.switchPassword);
  try {
    if ((await whoAmI(sh)) !== o.username) throw new Error(`${o.command} failed`);
    sh.send('passwd; echo "gh-rc-$?-end"\n');
    for (let step = 0; step < 6; step++) {
      const m = await sh.wait(
        /((?:current|old)[^:\n]*password[^:\n]*:\s*$)|((?:new|retype)[^:\n]*password[^:\n]*:\s*$)|gh-rc-(\d+)-end/i,
        'answer of passwd',
      );
      if (m[1]) sh.send(`${o.current}\n`);
      else if (m[2]) sh.send(`${o.next}\n`);
      else if (m[3] === '0') return;
      else throw new Error(`passwd ended with exit code ${m[3]}`);
    }
    throw new Error('passwd asked more than expected');
  } finally {
    sh.close();
  }
}
