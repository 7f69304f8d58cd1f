import type { FastifyRequest } from 'fastify';

/**
 * A permission's `%<template id>` accounts create and push accounts from the template on its
 * assets (contract §4.12): the push automation's (modules/automations/templateAccounts.ts, above
 * this module) fills this port at registration; the permission's writes call it once committed
 * with the permission's id. Without it (the module not registered) the permission only expands
 * `%<id>` to the template's username, as before.
 */
export type TemplateAccounts = (req: FastifyRequest, permissionId: string) => Promise<void>;

let port: TemplateAccounts | undefined;

export function setTemplateAccounts(fn: TemplateAccounts): void {
  port = fn;
}

export function templateAccounts(): TemplateAccounts | undefined {
  return port;
}
