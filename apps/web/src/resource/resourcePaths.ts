import { createContext, useContext } from 'react';

/** Where the pages of one resource live (list, create, update, detail: the JumpServer console). */
export interface ResourcePaths {
  list: string;
  create: string;
  update(id: string): string;
  detail(id: string): string;
}

export function resourcePaths(base: string): ResourcePaths {
  const b = base.replace(/\/$/, '');
  return {
    list: `${b}/`,
    create: `${b}/create`,
    update: (id) => `${b}/${id}/update`,
    detail: (id) => `${b}/${id}`,
  };
}

export const ResourcePathsContext = createContext<ResourcePaths | undefined>(undefined);

/** The paths of the resource whose pages are being shown, if any. */
export function useResourcePaths(): ResourcePaths | undefined {
  return useContext(ResourcePathsContext);
}
