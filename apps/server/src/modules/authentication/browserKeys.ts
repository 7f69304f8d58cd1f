import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PUBLIC_KEY_COOKIE } from '@gatehouse/contract';
import { ApiError, validationError } from '../../http/errors.ts';
import {
  decryptTransportSecret,
  generateTransportKeyPair,
  TransportDecryptError,
  type TransportKeyPair,
} from '../../platform/crypto/transportSecret.ts';
import { ta } from './authMessages.ts';

/**
 * Per-browser RSA keys for encrypted secret fields.
 *
 * A browser is known by a random id in the HttpOnly cookie `jms_gh_bid` (set on the first page,
 * ends with the browser). Each page response (GET under /core/, /ui/ (not assets), /luna/, /koko/) makes sure the
 * browser holds a public key in `jms_public_key` whose private key the server knows: the private
 * key PEM lives in the cache, sealed with the secret box, under
 * `bkey:<sha256(browser id : public-key cookie)>` for 7 days. Because the entry is found through
 * the public-key cookie the request carries, parallel page loads that each issued a key never
 * invalidate each other, and every instance (Redis cache) can decrypt. Sign-in drops the key the
 * password came with, so the next page gets a new one, as the contract does.
 *
 * Key pairs (2048-bit) come from a small pool refilled in the background, one generation at a
 * time; each browser gets its own pair. When a flood of new browsers leaves more than 64 waiting,
 * the newest pair is shared rather than letting generations pile up.
 */
export const BROWSER_COOKIE = 'jms_gh_bid';
const KEY_TTL_SECONDS = 7 * 86400;
const POOL_SIZE = 4;
const MAX_WAITING = 64;
const BID_RE = /^[\w-]{43}$/;

const cookieBase = { path: '/', sameSite: 'lax', secure: 'auto' } as const;

class KeyPool {
  private readonly ready: TransportKeyPair[] = [];
  private readonly waiting: ((pair: TransportKeyPair) => void)[] = [];
  private newest: TransportKeyPair | undefined;
  private running = false;

  /** A pair no other browser got; under a flood (many waiting) the newest pair is shared instead. */
  async take(): Promise<TransportKeyPair> {
    const pair = this.ready.shift();
    this.run();
    if (pair) return pair;
    if (this.waiting.length >= MAX_WAITING && this.newest) return this.newest;
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.run();
    });
  }

  /** One generation at a time (in libuv's pool, off the event loop), feeding waiters first. */
  private run(): void {
    if (this.running || (this.ready.length >= POOL_SIZE && !this.waiting.length)) return;
    this.running = true;
    void (async () => {
      try {
        while (this.waiting.length || this.ready.length < POOL_SIZE) {
          const pair = await generateTransportKeyPair();
          this.newest = pair;
          const waiter = this.waiting.shift();
          if (waiter) waiter(pair);
          else this.ready.push(pair);
        }
      } catch {
        // Key generation does not fail in practice; the next take() tries again.
      } finally {
        this.running = false;
      }
    })();
  }
}

const pool = new KeyPool();
const issuedBid = new WeakMap<FastifyRequest, string>();

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const keyCacheKey = (bid: string, publicKeyCookie: string) => `bkey:${sha256(`${bid}:${publicKeyCookie}`)}`;

/** The browser's id from its cookie (or the one issued earlier in this request). */
export function browserId(req: FastifyRequest): string | undefined {
  const issued = issuedBid.get(req);
  if (issued) return issued;
  const bid = req.cookies[BROWSER_COOKIE];
  return bid && BID_RE.test(bid) ? bid : undefined;
}

/** The browser's id, issuing one (cookie) when it has none. */
export function ensureBrowserId(req: FastifyRequest, reply: FastifyReply): string {
  const existing = browserId(req);
  if (existing) return existing;
  const bid = randomBytes(32).toString('base64url');
  issuedBid.set(req, bid);
  reply.setCookie(BROWSER_COOKIE, bid, { ...cookieBase, httpOnly: true });
  return bid;
}

/** Makes sure the browser holds a public key whose private key the server keeps. */
async function issuePageKey(req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const { cache, secretBox } = req.server.deps;
  const bid = ensureBrowserId(req, reply);
  const current = req.cookies[PUBLIC_KEY_COOKIE];
  if (current && (await cache.get(keyCacheKey(bid, current))) !== undefined) return;
  const pair = await pool.take();
  await cache.set(keyCacheKey(bid, pair.publicKeyCookie), secretBox.encrypt(pair.privateKeyPem), KEY_TTL_SECONDS);
  reply.setCookie(PUBLIC_KEY_COOKIE, pair.publicKeyCookie, { ...cookieBase, httpOnly: false });
}

async function browserPrivateKey(req: FastifyRequest): Promise<string | undefined> {
  const bid = browserId(req);
  const pub = req.cookies[PUBLIC_KEY_COOKIE];
  if (!bid || !pub) return undefined;
  const sealed = await req.server.deps.cache.get<string>(keyCacheKey(bid, pub));
  if (!sealed) return undefined;
  try {
    return req.server.deps.secretBox.decrypt(sealed);
  } catch {
    return undefined;
  }
}

/** Forgets the key the browser used (after sign-in): the next page response issues a new one. */
export async function dropBrowserKey(req: FastifyRequest): Promise<void> {
  const bid = browserId(req);
  const pub = req.cookies[PUBLIC_KEY_COOKIE];
  if (bid && pub) await req.server.deps.cache.delete(keyCacheKey(bid, pub));
}

/**
 * Decrypts a secret field sent as `keypart:valuepart` (legacy or Gatehouse scheme) with this
 * browser's key; plain text passes unchanged. A Gatehouse-marked value that does not decrypt is
 * refused with 400: under `field` as a field error when given, else `{detail, code}`.
 */
export async function decryptSecret(req: FastifyRequest, value: string, field?: string): Promise<string> {
  if (value.split(':').length !== 2) return value;
  try {
    return decryptTransportSecret(await browserPrivateKey(req), value).value;
  } catch (e) {
    if (!(e instanceof TransportDecryptError)) throw e;
    const msg = ta(req.lang, 'decrypt_failed');
    throw field ? validationError({ [field]: [msg] }) : new ApiError(400, { detail: msg, code: 'decrypt_failed' });
  }
}

/** Pages that may submit secrets: the login pages, the console and the terminal pages (not assets, not unknown paths). */
const PAGE_PREFIXES = ['/core/', '/ui/', '/luna/', '/koko/'];

function isPagePath(url: string): boolean {
  return PAGE_PREFIXES.some((p) => url.startsWith(p)) && !url.startsWith('/ui/assets/');
}

/** Page responses carry the browser's public key. */
export function registerBrowserKeys(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.method === 'GET' && isPagePath(req.url)) await issuePageKey(req, reply);
    return payload;
  });
}
