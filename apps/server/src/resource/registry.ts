import type { ResourceDef } from './types.ts';

/** Every declared resource by model name, so logs written by one can be labelled when read. */
const byModel = new Map<string, ResourceDef>();
/** Every declared resource by list URL (several URLs may share a model, e.g. the asset kinds). */
const byUrl = new Map<string, ResourceDef>();

export function registerDef(def: ResourceDef): void {
  byModel.set(def.model, def);
  byUrl.set(def.url, def);
}

export function defOf(model: string): ResourceDef | undefined {
  return byModel.get(model);
}

/** Every declared resource (the input fuzz test walks their lists; the matrix finds the routes that carry roles). */
export function allDefs(): ResourceDef[] {
  return [...byUrl.values()];
}
