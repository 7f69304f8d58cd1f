import type { LoginKey } from './texts.ts';

/**
 * Other ways to sign in, shown under the password form (e.g. a "sign in with a passkey" button): a
 * method is a function that draws its control, or null when it does not apply on this browser or
 * server. Register one with `addLoginMethod` before `main.ts` draws the page (import its module in
 * `main.ts`). Its texts go to `login.json` in en, zh and ja like the page's own.
 */
export interface LoginMethodContext {
  /** The page's texts in its current language. */
  t: (key: LoginKey, params?: Record<string, string | number>) => string;
  /** The `next` of the page's URL (the server makes it safe when it answers). */
  next: string | null;
  /** Signed in: go to `target` (a same-site path only, as the password form does). */
  signedIn: (target: string | undefined) => void;
  /** Shows the error alert above the form, or hides it with undefined. */
  showError: (message: string | undefined) => void;
}

export type LoginMethod = (ctx: LoginMethodContext) => HTMLElement | null;

const methods: LoginMethod[] = [];

export function addLoginMethod(method: LoginMethod): void {
  methods.push(method);
}

/** The controls of the registered methods that apply, in the order they were added. */
export function loginMethodControls(ctx: LoginMethodContext): HTMLElement[] {
  return methods.map((m) => m(ctx)).filter((el): el is HTMLElement => el !== null);
}
