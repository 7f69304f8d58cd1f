import { randomInt } from 'node:crypto';
import type { Language, TextParams } from '@gatehouse/contract';
import type { Selectable } from 'kysely';
import { catalogue, tr } from '../../../platform/i18n/catalogue.ts';
import type sharingMessages from '../../../platform/i18n/locales/en/sharing.json';
import { toBool } from '../../../platform/db/schema.ts';
import type { SessionSharingTable } from '../../../platform/db/tables/sessionAudit.ts';
import type { TerminalSessionTable } from '../../../platform/db/tables/terminal.ts';
import { tm } from '../gateway/gatewayError.ts';

/**
 * The rules of session sharing (routes: sharingRoutes.ts; the joiner's socket: ../monitorSocket.ts).
 * A sharing lets others watch (readonly) or type into (writable) one running session of its
 * creator for `expired_time` minutes, after giving its verify code. The code is VERIFY_CODE_LENGTH
 * characters of an alphabet without look-alikes; MAX_FAILURES wrong codes stop the sharing, so
 * guessing it costs the guesser the sharing, not the owner their session.
 */
const SM = catalogue<typeof sharingMessages>('sharing');
export type SharingMessageKey = keyof typeof sharingMessages;
export const sm = (lang: Language, key: SharingMessageKey, params?: TextParams) => tr(lang, SM[key], params);

export const VERIFY_CODE_LENGTH = 6;
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const MAX_FAILURES = 5;
export const MAX_USERS = 100;
export const MAX_MINUTES = 1440;
/** A join record opens the joiner's socket only this soon after it was made. */
export const JOIN_ATTACH_MS = 60_000;
export const SHARING_URL = '/api/v1/terminal/session-sharings/';
export const JOIN_RECORD_URL = '/api/v1/terminal/session-join-records/';

export type SharingRow = Selectable<SessionSharingTable>;
type SessionRow = Pick<Selectable<TerminalSessionTable>, 'is_finished' | 'type' | 'login_from'>;

export function newVerifyCode(): string {
  let code = '';
  for (let i = 0; i < VERIFY_CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** The contract's can_join: running, a normal session, not from an RDP client. */
export function shareable(s: SessionRow): boolean {
  return !toBool(s.is_finished) && s.type === 'normal' && s.login_from !== 'RT';
}

export const expiresAt = (s: Pick<SharingRow, 'date_created' | 'expired_time'>) =>
  Date.parse(s.date_created) + s.expired_time * 60_000;

export const invitedIds = (s: Pick<SharingRow, 'users'>): string[] => {
  try {
    const v = JSON.parse(s.users) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
};

/**
 * Why `userId` may not join through the sharing now (a catalogue key), or undefined. `member`: the
 * user belongs to the session's org (who may join an open sharing, one that names nobody).
 */
export function joinRefusal(
  s: SharingRow,
  session: SessionRow | undefined,
  who: { userId: string; member: boolean },
  now = Date.now(),
): SharingMessageKey | undefined {
  if (s.failed_attempts >= MAX_FAILURES) return 'locked_out';
  if (!toBool(s.is_active)) return 'inactive';
  if (now >= expiresAt(s)) return 'expired';
  if (!session || !shareable(session)) return 'session_ended';
  const invited = invitedIds(s);
  if (invited.length ? !invited.includes(who.userId) : !who.member) return 'not_invited';
  return undefined;
}

/** The contract's SessionSharing shape (`users` is write-only; `users_display` names them). */
export function sharingOut(s: SharingRow, lang: Language, usersDisplay: string[]) {
  return {
    id: s.id,
    session: s.session_id,
    creator: s.creator_id,
    verify_code: s.verify_code,
    is_active: toBool(s.is_active),
    expired_time: s.expired_time,
    users_display: usersDisplay.join(', '),
    action_permission: {
      value: s.action_permission,
      label: tm(lang, s.action_permission === 'writable' ? 'action_permission_writable' : 'action_permission_readonly'),
    },
    origin: s.origin,
    url: `${s.origin}/luna/share/${s.id}/`,
    org_id: s.org_id,
    created_by: s.created_by,
    date_created: s.date_created,
    date_updated: s.date_updated,
  };
}
