import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  PREFERENCE_CATEGORIES,
  PREFERENCE_SECRET_MAX,
  PREFERENCE_SECRET_MIN,
  PREFERENCES,
  type PreferenceCategory,
  type PreferenceField,
} from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { nowIso } from '../../platform/db/schema.ts';
import { decryptSecret } from '../authentication/browserKeys.ts';
import { tp } from '../authentication/profile/profileMessages.ts';
import { shape, type GlossaryKey } from '../../resource/describe.ts';

/**
 * `GET|PATCH /api/v1/users/preference/?category=luna|koko|lina`: the caller's own preferences,
 * defaults (`PREFERENCES` in the contract) merged with stored rows (`users_preference`, one per
 * field, JSON values), grouped as the contract shows. A PATCH sends any part of the same shape;
 * every value is checked against its definition (400 on the field, in the caller's language).
 * `lina.basic.secret_key` (+ `secret_key_again`) is sealed with the secret box and only reported
 * as `has_secret_key`.
 */
const URL = '/api/v1/users/preference/';
const SECRET_NAME = 'secret_key';

type Groups = Record<string, Record<string, unknown>>;

function categoryOf(req: FastifyRequest): PreferenceCategory {
  const category = (req.query as { category?: string }).category ?? '';
  if (!(PREFERENCE_CATEGORIES as readonly string[]).includes(category))
    throw new ApiError(400, { category: [tp(req.lang, 'preference_category_invalid', { category })] });
  return category as PreferenceCategory;
}

async function storedRows(req: FastifyRequest, category: PreferenceCategory) {
  return req.db
    .selectFrom('users_preference')
    .select(['name', 'value', 'encrypted'])
    .where('user_id', '=', req.user!.id)
    .where('category', '=', category)
    .execute();
}

async function read(req: FastifyRequest, category: PreferenceCategory): Promise<Groups> {
  const rows = await storedRows(req, category);
  if (category === 'lina') return { basic: { has_secret_key: rows.some((r) => r.name === SECRET_NAME) } };
  const stored = new Map(rows.map((r) => [r.name, r.value]));
  const out: Groups = {};
  for (const [group, fields] of Object.entries(PREFERENCES[category])) {
    out[group] = {};
    for (const [name, def] of Object.entries(fields)) {
      let value: unknown = def.default;
      const raw = stored.get(name);
      if (raw !== undefined)
        try {
          value = JSON.parse(raw);
        } catch {
          value = def.default;
        }
      out[group][name] = value;
    }
  }
  return out;
}

/** The value when it fits the definition, else the field's error message. */
function check(req: FastifyRequest, def: PreferenceField, value: unknown): { value: unknown } | { error: string } {
  const choice = () => ({ error: tp(req.lang, 'preference_choice_invalid', { value: String(value) }) });
  switch (def.kind) {
    case 'boolean':
      return typeof value === 'boolean' ? { value } : { error: tp(req.lang, 'boolean_invalid') };
    case 'number': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      return typeof n === 'number' && Number.isInteger(n) && n >= def.min && n <= def.max
        ? { value: n }
        : { error: tp(req.lang, 'preference_number_invalid', { min: def.min, max: def.max }) };
    }
    case 'choice':
      return typeof value === 'string' && def.choices.includes(value) ? { value } : choice();
    case 'multi':
      return Array.isArray(value) && value.every((v) => typeof v === 'string' && def.choices.includes(v))
        ? { value: [...new Set(value as string[])] }
        : choice();
  }
}

async function upsert(req: FastifyRequest, category: string, name: string, value: string, encrypted: boolean) {
  const now = nowIso();
  await req.db
    .insertInto('users_preference')
    .values({
      id: randomUUID(),
      user_id: req.user!.id,
      category,
      name,
      value,
      encrypted,
      date_created: now,
      date_updated: now,
    })
    .onConflict((oc) =>
      oc.columns(['user_id', 'category', 'name']).doUpdateSet({ value, encrypted, date_updated: now }),
    )
    .execute();
}

async function writeLina(req: FastifyRequest, body: Groups): Promise<void> {
  const basic = body.basic ?? {};
  if (basic.secret_key === undefined) return;
  const secret = typeof basic.secret_key === 'string' ? await decryptSecret(req, basic.secret_key, 'secret_key') : '';
  const again =
    typeof basic.secret_key_again === 'string'
      ? await decryptSecret(req, basic.secret_key_again, 'secret_key_again')
      : '';
  if (secret.length < PREFERENCE_SECRET_MIN || secret.length > PREFERENCE_SECRET_MAX)
    throw new ApiError(400, { basic: { secret_key: [tp(req.lang, 'preference_secret_length')] } });
  if (secret !== again)
    throw new ApiError(400, { basic: { secret_key_again: [tp(req.lang, 'preference_secret_mismatch')] } });
  await upsert(req, 'lina', SECRET_NAME, req.server.deps.secretBox.encrypt(secret), true);
}

async function write(req: FastifyRequest, category: PreferenceCategory): Promise<void> {
  const body = req.body;
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new ApiError(400, { detail: tp(req.lang, 'preference_unknown') });
  const groups = body as Groups;
  if (category === 'lina') return writeLina(req, groups);
  const defs = PREFERENCES[category];
  const errors: Record<string, Record<string, string[]>> = {};
  const accepted: [string, unknown][] = [];
  for (const [group, fields] of Object.entries(groups)) {
    if (!fields || typeof fields !== 'object' || Array.isArray(fields) || !defs[group]) {
      errors[group] = { non_field_errors: [tp(req.lang, 'preference_unknown')] };
      continue;
    }
    for (const [name, value] of Object.entries(fields)) {
      const def = defs[group][name];
      const result = def ? check(req, def, value) : { error: tp(req.lang, 'preference_unknown') };
      if ('error' in result) (errors[group] ??= {})[name] = [result.error];
      else accepted.push([name, result.value]);
    }
  }
  if (Object.keys(errors).length) throw new ApiError(400, errors);
  for (const [name, value] of accepted) await upsert(req, category, name, JSON.stringify(value), false);
}

/** Every signed-in user reads and writes their own preferences only: there is no user in the URL. */
export function registerPreferenceRoutes(app: FastifyInstance): void {
  // Without a category (as a client first asks), every category's groups.
  const describe = (req: FastifyRequest) => {
    const category = (req.query as { category?: string }).category;
    const groups =
      category === 'lina'
        ? ['basic']
        : category && category in PREFERENCES
          ? Object.keys(PREFERENCES[category as keyof typeof PREFERENCES])
          : [...new Set(Object.values(PREFERENCES).flatMap((c) => Object.keys(c)))];
    return shape('preference', Object.fromEntries(groups.map((g) => [g, 'json' as const])), groups as GlossaryKey[]);
  };
  app.get(URL, { config: { describe } }, async (req) => read(req, categoryOf(req)));
  const save = async (req: FastifyRequest) => {
    const category = categoryOf(req);
    await write(req, category);
    return read(req, category);
  };
  app.patch(URL, save);
  app.put(URL, save);
}
