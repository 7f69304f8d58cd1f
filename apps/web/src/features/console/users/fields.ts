import type { FieldSpec } from '../../../resource/FormField.tsx';
import type { ResourceObject } from '../../../resource/types.ts';

/** Where the related fields of users and groups choose from. */
const displayName = (o: ResourceObject) => String(o.display_name ?? o.name ?? o.id);

export const userFieldSpecs: Record<string, FieldSpec> = {
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
