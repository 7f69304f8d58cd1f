/**
 * The actions of an asset permission (bits on the server): the names, their tree (connect,
 * transfer, clipboard) and the value conversions the form, list and detail share.
 */
export const PERM_ACTIONS = ['connect', 'upload', 'download', 'copy', 'paste', 'delete'] as const;
export type PermAction = (typeof PERM_ACTIONS)[number];

export interface ActionTreeNode {
  key: string;
  children?: ActionTreeNode[];
}

export const ACTION_TREE: ActionTreeNode[] = [
  { key: 'connect' },
  { key: 'transfer', children: [{ key: 'upload' }, { key: 'download' }, { key: 'delete' }] },
  { key: 'clipboard', children: [{ key: 'copy' }, { key: 'paste' }] },
];

const isAction = (v: string): v is PermAction => (PERM_ACTIONS as readonly string[]).includes(v);

/** The action names of a value as the server or the form holds it (`['connect']`, `[{value, label}]`, `'all'`). */
export function actionNames(value: unknown): PermAction[] {
  if (value === 'all') return [...PERM_ACTIONS];
  if (!Array.isArray(value)) return [];
  const names = value.map((v) => String(v && typeof v === 'object' ? (v as { value: unknown }).value : v));
  if (names.includes('all')) return [...PERM_ACTIONS];
  return PERM_ACTIONS.filter((a) => names.includes(a) && isAction(a));
}

/** Whether every action is granted (the list then says "All"). */
export const allActions = (value: unknown) => actionNames(value).length === PERM_ACTIONS.length;

/** The virtual account choices of a permission's `accounts` (all, specified, manual, same name, anonymous). */
export const VIRTUAL_ACCOUNTS = ['@ALL', '@SPEC', '@INPUT', '@USER', '@ANON'] as const;
/** `@SPEC` is only the form's switch for "specified accounts": it is never sent. */
export const SPEC = '@SPEC';
/** A template stands for its accounts: `%<template id>`. */
export const TEMPLATE_PREFIX = '%';
