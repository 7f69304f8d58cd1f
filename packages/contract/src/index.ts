export * from './ids.ts';
export * from './constants.ts';
export * from './categories.ts';
export * from './permissions.ts';
export * from './types.ts';
export * from './i18nText.ts';
export * from './routeMeta.ts';
export * from './acls.ts';
