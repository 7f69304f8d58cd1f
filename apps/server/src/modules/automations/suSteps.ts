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

/** Switches with `command`, answering its prompt with `password`; then runs as the account. */
async function switchTo(client: ssh2.Client, command: string, password: string): Promise<Shell> {
  const sh = await openShell(client);
  sh.send(`${command}\n`);
  await sh.wait(/assword[^:\n]*:\s*$/, 'password prompt of the switch');
  sh.send(`${password}\n`);
  // su empties what was typed ahead: the next line goes once a shell prompts (or su refused).
  await sh.wait(/(failure|incorrect|sorry|denied)|[#$>%]\s*$/i, 'prompt after the switch');
  return sh;
}

/** Who the shell runs as after the switch (the account's name read back), or why not. */
async function whoAmI(sh: Shell): Promise<string> {
  // The line typed shows "%s" where the answer shows the name, so only the answer matches.
  sh.send(`printf 'gh-%s-user\\n' "$(id -un)"\n`);
  const m = await sh.wait(/gh-([A-Za-z0-9_.-]+)-user/, 'answer of id');
  return m[1]!;
}

/** A fresh switch to `username` with `password`; undefined when it opened, else why not. */
export async function suLogin(client: ssh2.Client, username: string, password: string): Promise<string | undefined> {
  let sh: Shell | undefined;
  try {
    sh = await switchTo(client, `su - ${username}`, password);
    const who = await whoAmI(sh);
    return who === username ? undefined : `su - ${username} failed`;
  } catch (e) {
    return (e as Error).message;
  } finally {
    sh?.close();
  }
}

/**
 * Changes `username`'s password with `passwd` run as itself after the switch (`command` answered
 * with `switchPassword`); `passwd`'s prompts get the current password, then the new one twice.
 */
export async function suChangePassword(
  client: ssh2.Client,
  o: { username: string; command: string; switchPassword: string; current: string; next: string },
): Promise<void> {
  const sh = await switchTo(client, o.command, o.switchPassword);
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
