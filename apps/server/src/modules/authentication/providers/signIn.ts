import type { FastifyRequest } from 'fastify';
import { DEFAULT_ORG_ID } from '@gatehouse/contract';
import { findUserWithPassword } from '../userLookup.ts';
import { existingOrgs, upsertExternalUser, type ExternalProfile } from './externalUsers.ts';
import { LM } from '../ldap/messages.ts';
import { tr } from '../../../platform/i18n/catalogue.ts';

type Found = NonNullable<Awaited<ReturnType<typeof findUserWithPassword>>>;

/** The organisations a new user of each source joins (the default org for the others). */
const ORG_SETTING: Readonly<Record<string, string>> = {
  ldap: 'AUTH_LDAP_SYNC_ORG_IDS',
  openid: 'AUTH_OPENID_ORG_IDS',
  oauth2: 'AUTH_OAUTH2_ORG_IDS',
  cas: 'CAS_ORG_IDS',
};

/** Whether a sign-in refreshes an existing user's name and email (the *_ALWAYS_UPDATE_USER settings). */
const UPDATE_SETTING: Readonly<Record<string, string>> = {
  openid: 'AUTH_OPENID_ALWAYS_UPDATE_USER',
  oauth2: 'AUTH_OAUTH2_ALWAYS_UPDATE_USER',
  saml2: 'AUTH_SAML2_ALWAYS_UPDATE_USER',
  cas: 'CAS_APPLY_ATTRIBUTES_TO_USER',
};

/**
 * The user a provider vouched for: found (and refreshed from the profile: always for a directory,
 * by the provider's ALWAYS_UPDATE_USER setting otherwise), or created in the source's
 * organisations unless ONLY_ALLOW_EXIST_USER_AUTH. A username held by a user of another source is
 * refused (`username_taken`): a provider never signs in a local user or another provider's.
 */
export async function signInExternal(
  req: FastifyRequest,
  profile: ExternalProfile,
  source: string,
): Promise<{ ok: true; user: Found } | { ok: false; error: 'user_not_exist' | 'user_invalid'; msg: string }> {
  const { settings } = req.server.deps;
  const orgSetting = ORG_SETTING[source];
  const orgIds = await existingOrgs(
    req.db,
    orgSetting ? ((await settings.valueOf(orgSetting)) as string[]) : [DEFAULT_ORG_ID],
  );
  const updateSetting = UPDATE_SETTING[source];
  const r = await upsertExternalUser(req.db, profile, source, {
    create:
      !(await settings.valueOf('ONLY_ALLOW_EXIST_USER_AUTH')) &&
      (source !== 'cas' || Boolean(await settings.valueOf('CAS_CREATE_USER'))),
    update: updateSetting ? Boolean(await settings.valueOf(updateSetting)) : true,
    orgIds,
    by: source,
  });
  if (!r.ok) {
    if (r.error === 'user_not_exist') return { ok: false, error: r.error, msg: tr(req.lang, LM.user_not_exist) };
    return { ok: false, error: 'user_invalid', msg: tr(req.lang, LM[r.error], { ...profile }) };
  }
  const user = await findUserWithPassword(req.db, profile.username.trim());
  if (!user) return { ok: false, error: 'user_not_exist', msg: tr(req.lang, LM.user_not_exist) };
  return { ok: true, user };
}
