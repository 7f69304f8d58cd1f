import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateOperatorKeys, issueLicence } from './licence.ts';

/**
 * `gatehouse licence keygen --out <dir>`: an operator's Ed25519 key pair (private key 0600).
 * `gatehouse licence issue --key <operator.key> --corporation <name> --expires YYYY-MM-DD
 *   [--assets N] [--edition Enterprise|Testing]`: prints a licence. Installs trust the operator's
 * public key through GATEHOUSE_LICENSE_PUBLIC_KEY.
 */
export function licenceCli(args: string[], out: (s: string) => void): number {
  const [sub, ...rest] = args;
  if (sub === 'keygen') {
    const { values } = parseArgs({ args: rest, options: { out: { type: 'string' } } });
    if (!values.out) throw new Error('licence keygen needs --out <directory>');
    fs.mkdirSync(values.out, { recursive: true, mode: 0o700 });
    const keys = generateOperatorKeys();
    const priv = path.join(values.out, 'operator.key');
    fs.writeFileSync(priv, keys.privatePem, { mode: 0o600 });
    fs.writeFileSync(path.join(values.out, 'operator.pub'), keys.publicPem);
    out(
      `wrote ${priv} (keep it secret) and operator.pub; trust it with GATEHOUSE_LICENSE_PUBLIC_KEY="$(base64 -w0 ${path.join(values.out, 'operator.pub')})"\n`,
    );
    return 0;
  }
  if (sub === 'issue') {
    const { values } = parseArgs({
      args: rest,
      options: {
        key: { type: 'string' },
        corporation: { type: 'string' },
        expires: { type: 'string' },
        assets: { type: 'string' },
        edition: { type: 'string' },
      },
    });
    if (!values.key || !values.corporation || !values.expires)
      throw new Error('licence issue needs --key, --corporation and --expires YYYY-MM-DD');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(values.expires)) throw new Error('--expires must be a date like 2027-12-31');
    const assets = values.assets === undefined ? 0 : Number(values.assets);
    if (!Number.isInteger(assets) || assets < 0) throw new Error('--assets must be a whole number (0 = no limit)');
    const edition = values.edition === 'Testing' ? 'Testing' : 'Enterprise';
    out(
      `${issueLicence(fs.readFileSync(values.key, 'utf8'), { corporation: values.corporation, edition, expired: values.expires, asset_count: assets })}\n`,
    );
    return 0;
  }
  throw new Error(
    'use: licence keygen --out <dir> | licence issue --key <file> --corporation <name> --expires YYYY-MM-DD [--assets N] [--edition Testing]',
  );
}
