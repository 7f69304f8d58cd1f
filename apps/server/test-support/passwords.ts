/** Password hashes for tests that write a user straight into a server's database (browser tests). */
export { hashPassword } from '../src/platform/crypto/password.ts';
