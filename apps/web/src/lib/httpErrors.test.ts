import { describe, expect, it } from 'vitest';
import { confirmCodeOf, errorAction, extractMessage } from './httpErrors.ts';

describe('extractMessage', () => {
  it('takes error, msg or detail, in that order', () => {
    expect(extractMessage({ error: 'E', msg: 'M', detail: 'D' })).toBe('E');
    expect(extractMessage({ msg: 'M', detail: 'D' })).toBe('M');
    expect(extractMessage({ detail: 'D', code: 'x' })).toBe('D');
  });
  it('joins non_field_errors with spaces and arrays with semicolons', () => {
    expect(extractMessage({ non_field_errors: ['One.', 'Two.'] })).toBe('One. Two.');
    expect(extractMessage({ detail: ['a', 'b'] })).toBe('a; b');
    expect(extractMessage(['x', ['y', 'z']])).toBe('x; y; z');
  });
  it('keeps short plain text, drops HTML pages and unknown shapes', () => {
    expect(extractMessage('Bad gateway ')).toBe('Bad gateway');
    expect(extractMessage('<html><body>500</body></html>')).toBe('');
    expect(extractMessage({ name: ['This field is required.'] })).toBe('');
    expect(extractMessage(null)).toBe('');
  });
});

describe('confirmCodeOf', () => {
  it('recognises the re-verification answer only on a 400', () => {
    expect(confirmCodeOf(400, { code: 'mfa', detail: 'This action require confirm current user' })).toBe('mfa');
    expect(confirmCodeOf(400, { code: 'password' })).toBe('password');
    expect(confirmCodeOf(400, { code: 'perm_expired' })).toBeUndefined();
    expect(confirmCodeOf(403, { code: 'relogin' })).toBeUndefined();
  });
});

describe('errorAction (spec 01 §8)', () => {
  it('401: the profile goes to the login page, anything else asks to log in again', () => {
    expect(errorAction(401, '/api/v1/users/profile/', {})).toEqual({ kind: 'login' });
    expect(errorAction(401, '/api/v1/users/users/?limit=15', {})).toEqual({ kind: 'relogin' });
  });
  it('400: the detail, else the generic message; public settings: the trusted-domains alert', () => {
    expect(errorAction(400, '/api/v1/x/', { detail: 'Nope' })).toEqual({ kind: 'toast', message: 'Nope' });
    expect(errorAction(400, '/api/v1/x/', { name: ['bad'] })).toEqual({
      kind: 'toast',
      key: 'session.error.badRequest',
    });
    expect(errorAction(400, '/api/v1/settings/public/', {})).toEqual({ kind: 'trustedDomains' });
  });
  it('403, 409 and 500 have fixed messages; others the extracted or own message', () => {
    expect(errorAction(403, '/api/v1/x/', { detail: 'no' })).toEqual({ kind: 'toast', key: 'session.error.forbidden' });
    expect(errorAction(409, '/api/v1/x/', {})).toEqual({ kind: 'toast', key: 'session.error.conflict' });
    expect(errorAction(500, '/api/v1/x/', {})).toEqual({ kind: 'toast', key: 'session.error.server' });
    expect(errorAction(404, '/api/v1/x/', { error: 'Not found' })).toEqual({ kind: 'toast', message: 'Not found' });
    expect(errorAction(502, '/api/v1/x/', '<html/>', 'HTTP 502')).toEqual({ kind: 'toast', message: 'HTTP 502' });
  });
});
