import { create } from 'zustand';
import { OTP_LENGTH } from '@gatehouse/contract';
import type { ConfirmCode } from '../../lib/httpErrors.ts';

/**
 * The open re-verification request: the HTTP client asks (`httpContext.confirm`), the dialog
 * answers. Concurrent calls that need it share one dialog and one answer.
 */
interface ReverifyState {
  type: ConfirmCode | undefined;
  waiting: ((ok: boolean) => void)[];
  ask(type: ConfirmCode): Promise<boolean>;
  finish(ok: boolean): void;
}

export const useReverifyStore = create<ReverifyState>((set, get) => ({
  type: undefined,
  waiting: [],
  ask: (type) =>
    new Promise<boolean>((resolve) => {
      const { type: open, waiting } = get();
      set({ type: open ?? type, waiting: [...waiting, resolve] });
    }),
  finish: (ok) => {
    const { waiting } = get();
    set({ type: undefined, waiting: [] });
    for (const w of waiting) w(ok);
  },
}));

/** Seconds the SMS button stays disabled after sending. */
export const SMS_RESEND_SECONDS = 60;
export const CONFIRM_URL = '/api/v1/authentication/confirm/';
export const MFA_SELECT_URL = '/api/v1/authentication/mfa/select/';

export interface ConfirmChoice {
  name: string;
  display_name: string;
  placeholder?: string;
  disabled: boolean;
}

export interface ConfirmInfo {
  confirm_type: ConfirmCode;
  content: ConfirmChoice[] | '';
}

/** The 6-character rule for MFA codes; other secrets only need to be present. */
export function secretIsValid(type: ConfirmCode, mfaType: string | undefined, secret: string): boolean {
  if (type === 'mfa' && mfaType === 'otp') return secret.trim().length === OTP_LENGTH;
  return secret.length > 0;
}
