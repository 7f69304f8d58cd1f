import { describe, expect, it } from 'vitest';
import { asksSecret, caretKeys, nextStop, plainText, withoutPasteMarks } from './lineKeys.ts';

/** What keys mean for a command line before any screen is read (the gateway tests run them against bash). */
describe('the keys of a command line', () => {
  it('stops at every key a shell takes the line at, and at Ctrl+C', () => {
    expect(['ls\r', 'ls\n', 'ls\x0f', 'ls\x03', 'ls'].map(nextStop)).toEqual([2, 2, 2, 2, -1]);
  });

  it('takes a bracketed paste as typed keys, whose line ends are Enter', () => {
    expect(withoutPasteMarks('\x1b[200~echo a\recho b\r\x1b[201~')).toBe('echo a\recho b\r');
    expect(withoutPasteMarks('\x1b[A')).toBe('\x1b[A');
  });

  it('tells plain text from editing keys, and writes keys as text in caret notation', () => {
    expect(plainText('echo hé')).toBe(true);
    expect(plainText('echo\t')).toBe(false);
    expect(caretKeys('\x0f\x1b[Als\x7f')).toBe('^O^[[Als^?');
  });

  it('knows prompts that ask for a secret, not shell prompts', () => {
    for (const p of [
      '[sudo] password for ann:',
      "Enter passphrase for key '/root/.ssh/id_ed25519': ",
      'Verification code:',
      'Secret: ',
      '密码：',
      'パスワード:',
    ])
      expect(asksSecret(p), p).toBe(true);
    for (const p of ['gh$ ', 'root@passport:~# ', 'ann@token-host:/srv$ ', '> ']) expect(asksSecret(p), p).toBe(false);
  });
});
