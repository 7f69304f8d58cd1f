import { afterEach, describe, expect, it } from 'vitest';
import { CommandReader } from './commandReader.ts';

/**
 * The command reader keeps output aside and parses it only when a line is read: after a command
 * printed megabytes it holds a bounded tail, and still reads the next command line and whether a
 * full-screen program runs. (The reader is fed what a shell would send; the gateway tests run it
 * against a real bash.)
 */
let reader: CommandReader;
afterEach(() => reader?.dispose());

const PROMPT = 'gh$ ';
/** `mb` megabytes of log lines in 4 KiB pieces, as an ssh channel delivers a `cat`. */
function flood(r: CommandReader, mb: number): number {
  const line = `${'0123456789abcdef'.repeat(6)}\r\n`;
  const piece = line.repeat(Math.floor(4096 / line.length));
  let peak = 0;
  for (let sent = 0; sent < mb * 1024 * 1024; sent += piece.length) {
    r.output(piece);
    peak = Math.max(peak, r.backlogSize);
  }
  return peak;
}

/** Types `keys` as the shell echoes them, and answers the command read at Enter. */
async function typeLine(r: CommandReader, keys: string): Promise<string | undefined> {
  await r.settle();
  r.beginLine();
  r.output(keys);
  await r.settle();
  const command = r.command();
  r.endLine();
  return command;
}

describe('the command reader with keys typed ahead', () => {
  it('takes off a prompt that arrived after the first key was sent (a slow link)', async () => {
    reader = new CommandReader(80, 24);
    reader.output(PROMPT);
    expect(await typeLine(reader, 'echo one')).toBe('echo one');
    reader.output('\r\none\r\n');
    // The next command is sent before the shell's prompt is back: the line is empty at its first key.
    await reader.settle();
    reader.beginLine();
    reader.output(`${PROMPT}echo two`);
    await reader.settle();
    expect(reader.command()).toBe('echo two');
    reader.endLine();
  });
});

describe('the command reader where a line ends', () => {
  it('goes on with the prompt of a line the shell did not leave (a key taken for Enter it did not take the line at)', async () => {
    reader = new CommandReader(80, 24);
    reader.output(PROMPT);
    // Ctrl+O in vi insert mode: bash inserts it (^O) instead of running the line.
    expect(await typeLine(reader, 'tou')).toBe('tou');
    reader.output('^O');
    await reader.settle();
    // Nothing typed since: the line was read already.
    expect(reader.command()).toBeUndefined();
    reader.beginLine();
    expect(reader.continues).toBe(true);
    expect(reader.linePrompt?.trimEnd()).toBe(PROMPT.trimEnd());
    reader.output('ch x');
    await reader.settle();
    expect(reader.command()).toBe('tou^Och x');
    reader.endLine();
  });

  it('tells whether an interrupted line is gone, and distrusts one the shell still shows after Ctrl+C', async () => {
    reader = new CommandReader(80, 24);
    reader.output(PROMPT);
    expect(await typeLine(reader, 'touch x')).toBe('touch x');
    expect(reader.lineCleared()).toBe(false);
    // bash's answer to Ctrl+C: ^C, a new line, the prompt.
    reader.output(`^C\r\n${PROMPT}`);
    await reader.settle();
    expect(reader.lineCleared()).toBe(true);
    expect(reader.untrusted).toBe(false);

    // readline in vi mode after Escape and Ctrl+C within its key-sequence timeout: the line stays.
    await reader.settle();
    reader.beginLine();
    reader.output('xecho hi');
    reader.endLine(true);
    reader.output('\b^C\r\x1b[15C');
    await reader.settle();
    expect(reader.untrusted).toBe(true);
    reader.beginLine();
    expect(reader.continues).toBe(true);
    expect(reader.untrusted).toBe(true);
  });
});

describe('the command reader settling', () => {
  it('reads the screen after output that arrived while it parsed (a "^C", then the prompt apart)', async () => {
    reader = new CommandReader(80, 24);
    reader.output(PROMPT);
    expect(await typeLine(reader, 'rm kept')).toBe('rm kept');
    // dash under a pty: the terminal's echo of Ctrl+C, then the shell's new prompt in a piece of its own
    // that comes while the emulator still parses the first.
    reader.output('^C');
    const settled = reader.settle();
    reader.output(`\r\n${PROMPT}`);
    await settled;
    expect(reader.lineCleared()).toBe(true);
  });
});

describe('the command reader after a flood of output', () => {
  it('holds a bounded tail of 20 MB printed between two keystrokes, then reads the next command', async () => {
    reader = new CommandReader(80, 24);
    reader.output(PROMPT);
    expect(await typeLine(reader, 'cat big.log')).toBe('cat big.log');
    reader.output('\r\n');
    const peak = flood(reader, 20);
    expect(peak).toBeLessThan(80 * 1024);
    reader.output(PROMPT);
    expect(await typeLine(reader, 'echo next')).toBe('echo next');
    expect(reader.backlogSize).toBe(0);
  });

  it('still knows a full-screen program runs when its switch to the alternate screen was dropped', async () => {
    reader = new CommandReader(100, 30);
    reader.output(`${PROMPT}less big.log\r\n\x1b[?1049h\x1b[H\x1b[2J`);
    flood(reader, 2);
    await reader.settle();
    expect(reader.fullScreen).toBe(true);
    expect(await typeLine(reader, ':q')).toBeUndefined();
    // Leaving it, also among dropped output, brings the normal screen and its command line back.
    reader.output('\x1b[?1049l');
    flood(reader, 2);
    reader.output(PROMPT);
    await reader.settle();
    expect(reader.fullScreen).toBe(false);
    expect(await typeLine(reader, 'ls -l')).toBe('ls -l');
  });

  it('reads the prompt after one huge line without a newline', async () => {
    reader = new CommandReader(80, 24);
    for (let i = 0; i < 256; i++) reader.output('x'.repeat(4096));
    reader.output(`\r\n${PROMPT}`);
    expect(await typeLine(reader, 'pwd')).toBe('pwd');
  });
});
