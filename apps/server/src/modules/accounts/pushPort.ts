import type { ResourceCtx } from '../../resource/types.ts';

/**
 * Pushing accounts onto their assets is the push automation's (modules/automations/, above this
 * module): it fills this port at registration. The account form's `push_now` and `accounts/tasks/`
 * `push` call it with the accounts to push; it answers the execution's task id. Without it (the
 * module not registered) push answers 400 as before.
 */
export type PushAccounts = (ctx: ResourceCtx, accountIds: string[]) => Promise<string>;

let port: PushAccounts | undefined;

export function setPushAccounts(fn: PushAccounts): void {
  port = fn;
}

export function pushAccounts(): PushAccounts | undefined {
  return port;
}
