/** Where the roles pages are mounted (`routes.tsx`). */
export const ROLES_PATH = '/console/users/roles';
