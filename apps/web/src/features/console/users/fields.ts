import i18n from 'i18next';
import type { FormRule } from 'antd';
import { USERNAME_MESSAGES, usernameProblem, type Language } from '@gatehouse/contract';
import type { FieldSpec } from '../../../resource/FormField.tsx';
import type { ResourceObject } from '../../../resource/types.ts';

/** Where the related fields of users and groups choose from. */
const displayName = (o: ResourceObject) => String(o.display_name ?? o.name ?? o.id);

/** The server's username rule (packages/contract `usernameProblem`), checked before the form is sent. */
export const usernameRule: FormRule = {
  validator: async (_rule, value: unknown) => {
    const problem = typeof value === 'string' && value.trim() ? usernameProblem(value.trim()) : undefined;
    if (!problem) return;
    const lang = (['en', 'zh', 'ja'].includes(i18n.language) ? i18n.language : 'en') as Language;
    throw new Error(USERNAME_MESSAGES[problem][lang]);
  },
};

export const userFieldSpecs: Record<string, FieldSpec> = {
  username: { rules: [usernameRule] },
  groups: { url: '/api/v1/users/groups/?order=name' },
  system_roles: { url: '/api/v1/rbac/system-roles/', optionLabel: displayName },
  org_roles: { url: '/api/v1/rbac/org-roles/', optionLabel: displayName, hidden: (_, ctx) => ctx.isRootOrg },
  password_strategy: { hidden: (_, ctx) => ctx.isUpdate },
  /** On create the password is asked only for the "Set password" strategy; on update, blank keeps it. */
  password: { hidden: (v, ctx) => ctx.isCreate && v.password_strategy !== 'custom' },
  phone: { widget: 'phone' },
};

export const groupFieldSpecs: Record<string, FieldSpec> = {
  users: { url: '/api/v1/users/users/?order=name', optionLabel: (o) => `${String(o.name)}(${String(o.username)})` },
};
