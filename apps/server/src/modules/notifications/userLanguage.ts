import type { Kysely } from 'kysely';
import { languageFromCookie, type Language } from '@gatehouse/contract';
import type { DB } from '../../platform/db/schema.ts';

/**
 * The language a user reads (`users_user.lang`, migration 0910): the language of their last
 * signed-in request that named one, written only when it changes (`http/identify.ts` and sign-in
 * compare with the value read with the user). Messages the server writes to a user are rendered
 * in it (`siteMessages.ts`); a user never seen reads English.
 */
export function storedLanguage(value: string | null | undefined): Language {
  return languageFromCookie(value) ?? 'en';
}

/** Stores `lang` as the user's language when it differs from the one read with the user. */
export async function rememberLanguage(
  db: Kysely<DB>,
  user: { id: string; lang?: string },
  lang: Language,
): Promise<void> {
  if (user.lang === lang) return;
  await db.updateTable('users_user').set({ lang }).where('id', '=', user.id).execute();
  user.lang = lang;
}

const CHUNK = 500;

/** The given users grouped by their language; ids of no user are left out. */
export async function usersByLanguage(db: Kysely<DB>, userIds: readonly string[]): Promise<Map<Language, string[]>> {
  const out = new Map<Language, string[]>();
  for (let i = 0; i < userIds.length; i += CHUNK) {
    const rows = await db
      .selectFrom('users_user')
      .select(['id', 'lang'])
      .where('id', 'in', userIds.slice(i, i + CHUNK))
      .execute();
    for (const r of rows) {
      const lang = storedLanguage(r.lang);
      const group = out.get(lang);
      if (group) group.push(r.id);
      else out.set(lang, [r.id]);
    }
  }
  return out;
}
