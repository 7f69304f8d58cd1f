import type { FastifyRequest } from 'fastify';
import { tr } from '../../platform/i18n/catalogue.ts';
import { f, L } from '../../resource/fields.ts';
import type { Choice, FieldDef, ResourceCtx } from '../../resource/types.ts';
import { toBool } from '../../platform/db/schema.ts';
import { CATEGORY_CHOICES, TYPE_CHOICES } from '../assets/assetFields.ts';
import { ACCOUNT_MESSAGES as M } from './accountMessages.ts';
import { SECRET_MAX_LENGTH, SECRET_TYPES } from './secrets.ts';

/** Field declarations shared by accounts and account templates. */

const TYPE_LABEL = {
  password: M.secret_type_password,
  ssh_key: M.secret_type_ssh_key,
  access_key: M.secret_type_access_key,
  token: M.secret_type_token,
  api_key: M.secret_type_api_key,
};
export const SECRET_TYPE_CHOICES: Choice[] = SECRET_TYPES.map((v) => ({ value: v, label: TYPE_LABEL[v] }));
export const SOURCE_CHOICES: Choice[] = [
  { value: 'local', label: M.source_local },
  { value: 'collected', label: M.source_collected },
  { value: 'template', label: M.source_template },
];
export const ON_INVALID_CHOICES: Choice[] = [
  { value: 'skip', label: M.on_invalid_skip },
  { value: 'update', label: M.on_invalid_update },
  { value: 'error', label: M.on_invalid_error },
];
export const CONNECTIVITY_CHOICES: Choice[] = [
  { value: '-', label: M.connectivity_unknown },
  { value: 'ok', label: M.connectivity_ok },
  { value: 'err', label: M.connectivity_err },
];

/**
 * A secret as typed (the framework has decrypted the console's transport encryption: `encrypted`),
 * never trimmed (spaces belong to a password), a string of at most SECRET_MAX_LENGTH characters.
 */
async function secretInput(v: unknown, ctx: ResourceCtx): Promise<{ value?: unknown; error?: string }> {
  if (typeof v !== 'string') return { error: M.secret_not_text[ctx.req.lang] };
  if (v.length > SECRET_MAX_LENGTH)
    return { error: tr(ctx.req.lang, M.secret_too_long, { n: String(SECRET_MAX_LENGTH) }) };
  return { value: v };
}

const choiceOut = (choices: Choice[], v: unknown, req: FastifyRequest) => {
  const c = choices.find((x) => x.value === v);
  return c ? { value: c.value, label: c.label[req.lang] } : { value: v, label: String(v) };
};
export const typeOut = (v: unknown, req: FastifyRequest) => choiceOut(TYPE_CHOICES, v, req);
export const categoryOut = (v: unknown, req: FastifyRequest) => choiceOut(CATEGORY_CHOICES, v, req);

/** Fields of BaseAccount: what accounts and templates both have. */
export function baseAccountFields(): Record<string, FieldDef> {
  return {
    id: f.id(),
    name: f.string(L.name, { order: true, filter: true }),
    username: f.string(M.field_username, { order: true, filter: true }),
    secret_type: f.choice(M.field_secret_type, SECRET_TYPE_CHOICES, { default: 'password', filter: true }),
    secret: f.text(M.field_secret, {
      writeOnly: true,
      encrypted: true,
      parse: secretInput,
      maxLength: SECRET_MAX_LENGTH,
    }),
    passphrase: f.text(M.field_passphrase, { writeOnly: true, encrypted: true, parse: secretInput }),
    privileged: f.bool(M.field_privileged, { default: false, filter: true }),
    is_active: f.bool(L.is_active, { default: true, filter: true }),
    // Read-only to callers, written by the hooks with the secret it describes.
    spec_info: f.json(M.field_spec_info, { readOnly: true, noExport: true }),
    has_secret: f.computed('boolean', M.field_has_secret, (row) => Boolean(row.secret)),
    created_by: f.createdBy(),
    date_created: f.dateCreated(),
    date_updated: f.dateUpdated(),
    comment: f.comment(),
  };
}

export const isTrue = (v: unknown) => toBool(v as number) || v === 'true' || v === 'True' || v === '1';
