import { text, type I18nText } from './i18nText.ts';

/**
 * The username rule shared by the server's user resource and the console's user form: letters
 * (any script), digits, `_`, `-`, `.` and `@`, as Django's username validator and directory
 * (LDAP) names have them. Spaces, control characters and emoji are refused.
 */
export const USERNAME_RE = /^[\p{L}\p{M}\p{N}_.@-]+$/u;
const EMOJI_RE = /\p{Extended_Pictographic}/u;
const SPACE_OR_CONTROL_RE = /[\s\p{Cc}\p{Cf}]/u;

export const USERNAME_MESSAGES = {
  emoji: text('No special emoji allowed', '不能包含特殊表情符号', '特殊な絵文字は使用できません'),
  space: text(
    'Spaces and control characters are not allowed',
    '不能包含空格或控制字符',
    'スペースや制御文字は使用できません',
  ),
  chars: text(
    'Only letters, digits and the characters _ - . @ are allowed',
    '只能包含字母、数字和 _ - . @ 字符',
    '英数字と _ - . @ のみ使用できます',
  ),
} satisfies Record<string, I18nText>;

export type UsernameProblem = keyof typeof USERNAME_MESSAGES;

/** Why a username is refused, or undefined when it is acceptable. */
export function usernameProblem(value: string): UsernameProblem | undefined {
  if (USERNAME_RE.test(value)) return undefined;
  if (EMOJI_RE.test(value)) return 'emoji';
  if (SPACE_OR_CONTROL_RE.test(value)) return 'space';
  return 'chars';
}
