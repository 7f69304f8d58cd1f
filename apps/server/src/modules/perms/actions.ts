import type { Language } from '@gatehouse/contract';
import type { Choice, TreeChoice } from '../../resource/types.ts';
import { M } from './permMessages.ts';

/** Permission actions: a bit mask stored as an integer, shown as `[{value, label}]`. */
export const ACTION_BITS = { connect: 1, upload: 2, download: 4, copy: 8, paste: 16, delete: 32 } as const;
export type ActionName = keyof typeof ACTION_BITS;
export const ALL_ACTIONS = 63;
const NAMES = Object.keys(ACTION_BITS) as ActionName[];

export const ACTION_CHOICES: Choice[] = NAMES.map((n) => ({ value: n, label: M[`action_${n}`] }));

/** OPTIONS `tree`: connect, Transfer [upload, download, delete], Clipboard [copy, paste]. */
export const ACTION_TREE: TreeChoice[] = [
  { value: 'connect', label: M.action_connect },
  {
    value: 'transfer',
    label: M.action_transfer,
    children: [
      { value: 'upload', label: M.action_upload },
      { value: 'download', label: M.action_download },
      { value: 'delete', label: M.action_delete },
    ],
  },
  {
    value: 'clipboard',
    label: M.action_clipboard,
    children: [
      { value: 'copy', label: M.action_copy },
      { value: 'paste', label: M.action_paste },
    ],
  },
];

/** Names, `{value}` objects, the group names of the tree, or `"all"` → the mask; else the bad item. */
export function parseActions(v: unknown): { mask: number } | { bad: string } {
  if (v === 'all') return { mask: ALL_ACTIONS };
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= ALL_ACTIONS) return { mask: v };
  if (!Array.isArray(v)) return { bad: String(v) };
  let mask = 0;
  for (const item of v) {
    const name = item && typeof item === 'object' ? (item as { value?: unknown }).value : item;
    if (name === 'all') mask |= ALL_ACTIONS;
    else if (name === 'transfer') mask |= ACTION_BITS.upload | ACTION_BITS.download | ACTION_BITS.delete;
    else if (name === 'clipboard') mask |= ACTION_BITS.copy | ACTION_BITS.paste;
    else if (typeof name === 'string' && name in ACTION_BITS) mask |= ACTION_BITS[name as ActionName];
    else return { bad: String(name) };
  }
  return { mask };
}

export function actionNames(mask: number): ActionName[] {
  return NAMES.filter((n) => (mask & ACTION_BITS[n]) !== 0);
}

export function actionsOut(mask: number, lang: Language): { value: string; label: string }[] {
  return actionNames(mask).map((n) => ({ value: n, label: M[`action_${n}`][lang] }));
}
