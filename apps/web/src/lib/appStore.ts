import { create } from 'zustand';
import type { CategoryOut, OrgRef, Profile, PublicSettings } from '@gatehouse/contract';

/** Session-side state of the console, filled by the startup sequence. */
export interface AppState {
  inited: boolean;
  publicSettings: PublicSettings | null;
  profile: Profile | null;
  perms: ReadonlySet<string>;
  currentOrg: OrgRef | null;
  categories: CategoryOut[];
  set(patch: Partial<Omit<AppState, 'set' | 'reset'>>): void;
  /** Makes the startup sequence run again (view or org switch). */
  reset(): void;
}

export const useAppStore = create<AppState>((set) => ({
  inited: false,
  publicSettings: null,
  profile: null,
  perms: new Set(),
  currentOrg: null,
  categories: [],
  set: (patch) => set(patch),
  reset: () => set({ inited: false }),
}));
