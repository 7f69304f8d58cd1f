/** Moved to the framework (`resource/readOnlyRoutes.ts`): the audit logs use it too. */
export { registerReadOnly } from '../../resource/readOnlyRoutes.ts';
