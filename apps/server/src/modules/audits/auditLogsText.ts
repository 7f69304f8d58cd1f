import { catalogue } from '../../platform/i18n/catalogue.ts';
import type auditLogsMessages from '../../platform/i18n/locales/en/auditlogs.json';

/** Texts of the operate, password change, job and user-session logs. */
export const AL = catalogue<typeof auditLogsMessages>('auditlogs');
