import { describe, expect, it } from 'vitest';
import { md5Password, ScramClient } from './pgWire.ts';

/** The upstream login's answers (the machine's PostgreSQL trusts loopback, so they are checked here). */
describe('PostgreSQL upstream authentication', () => {
  it('answers SCRAM-SHA-256 as RFC 7677 section 3 shows, and checks the server signature', () => {
    const c = new ScramClient('pencil', 'rOprNGfwEbeRWgbNEkqO', 'user');
    expect(c.first()).toBe('n,,n=user,r=rOprNGfwEbeRWgbNEkqO');
    const serverFirst = 'r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096';
    expect(c.final(serverFirst)).toBe(
      'c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=',
    );
    expect(c.verify('v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=')).toBe(true);
    expect(c.verify('v=AAAATRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=')).toBe(false);
    // A server nonce that does not extend the client's is refused.
    expect(() => new ScramClient('pencil', 'abc').final('r=xyz,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096')).toThrow(/SCRAM/);
  });

  it("answers md5 as libpq does: 'md5' + md5(md5(password + user) + salt)", () => {
    // Computed apart with Python's hashlib for user postgres, password secret, salt 01 02 03 04.
    expect(md5Password('postgres', 'secret', Buffer.from([1, 2, 3, 4]))).toBe('md5bb41a296aab6baccb36ff243a562abff');
  });
});
