import { catalogue } from '../../../platform/i18n/catalogue.ts';
import type storageMessages from '../../../platform/i18n/locales/en/terminalStorages.json';

/** Messages of the terminal settings' storages and endpoints. */
export const SM = catalogue<typeof storageMessages>('terminalStorages');
