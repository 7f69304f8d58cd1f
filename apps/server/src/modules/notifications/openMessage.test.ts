import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../platform/crypto/secretBox.ts';
import { openMessage } from './siteMessages.ts';

describe('a sealed site message', () => {
  const box = new SecretBox(randomBytes(32));
  const sealed = { message: box.encrypt('<p>Part 1: s3cret</p>'), sealed: 1 };

  it('opens for its reader with the secret box, and is not clear text at rest', () => {
    expect(sealed.message).not.toContain('s3cret');
    expect(openMessage(box, sealed, 'en')).toBe('<p>Part 1: s3cret</p>');
  });

  it('says it can no longer be read after the secret key was replaced, in the reader’s language', () => {
    const other = new SecretBox(randomBytes(32));
    expect(openMessage(other, sealed, 'en')).toMatch(/can no longer be read/);
    expect(openMessage(other, sealed, 'zh')).toMatch(/无法读取/);
  });

  it('leaves a message that was never sealed as it was written', () => {
    expect(openMessage(box, { message: 'gh1$not-ours', sealed: 0 }, 'en')).toBe('gh1$not-ours');
  });
});
