import { translator } from '@gatehouse/contract';
import { catalogue } from '../../../platform/i18n/catalogue.ts';
import type ansibleMessages from '../../../platform/i18n/locales/en/ansible.json';

/** Messages of the Ansible runner and the playbook check, in every shipped language. */
export const AM = catalogue<typeof ansibleMessages>('ansible');
export const am = translator(AM);
export type AnsibleMessage = keyof typeof ansibleMessages;
