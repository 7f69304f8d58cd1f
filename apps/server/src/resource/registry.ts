import type { ResourceDef } from './types.ts';

/** How the logs name a model and its fields. */
export type LoggedModel = Pick<ResourceDef, 'model' | 'label'> & Partial<Pick<ResourceDef, 'fields'>>;

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

/**
 * Models that routes outside the framework write to the operate log (tickets, super connection
 * tokens): registered by their module so the log shows their name, not the model, in the reader's
 * language. Not resources: no lists, no routes.
 */
const outside = new Map<string, LoggedModel>();

export function registerLoggedModel(m: LoggedModel): void {
  outside.set(m.model, m);
}

/** The label (and field labels) of a model found in the logs: a resource's, or a registered one. */
export function loggedModelOf(model: string): LoggedModel | undefined {
  return byModel.get(model) ?? outside.get(model);
}

/** Every model the logs can name. */
export function allLoggedModels(): LoggedModel[] {
  return [...allDefs(), ...outside.values()];
}
