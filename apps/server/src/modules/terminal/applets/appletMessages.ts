import { catalogue } from '../../../platform/i18n/catalogue.ts';
import type appletMessages from '../../../platform/i18n/locales/en/applets.json';

/** Messages of applets, applet hosts, publications and deployments. */
export const AM = catalogue<typeof appletMessages>('applets');
