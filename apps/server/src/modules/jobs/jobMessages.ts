import { translator } from '@gatehouse/contract';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type jobsMessages from '../../platform/i18n/locales/en/jobs.json';

/** Labels and messages of the job centre, in three languages. */
export const JM = catalogue<typeof jobsMessages>('jobs');
export const jm = translator(JM);
