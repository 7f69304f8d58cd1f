import type { ResourceDef } from './types.ts';

/** Every declared resource by model name, so logs written by one can be labelled when read. */
const byModel = new Map<string, ResourceDef>();

export function registerDef(def: ResourceDef): void {
  byModel.set(def.model, def);
}

export function defOf(model: string): ResourceDef | undefined {
  return byModel.get(model);
}

/** Every declared resource (tests generate route lists from them, e.g. the routes that carry roles). */
export function allDefs(): ResourceDef[] {
  return [...byModel.values()];
}
