import type { FastifyInstance } from 'fastify';
import type { Language } from '@gatehouse/contract';
import type { HostResult, RunnerHost } from '../ops/engine/runner.ts';
import { CommandPolicy } from '../terminal/gateway/commandPolicy.ts';
import { commandReviewer } from '../terminal/gateway/commandReview.ts';
import { resolveTarget } from '../terminal/gateway/sshTarget.ts';
import { connectableAccounts, pickAccount } from './jobAssets.ts';
import { moduleFits } from './jobModules.ts';
import { databaseConnection } from './dbConnection.ts';

/**
 * The rules of a run, per asset, before anything reaches it (docs/ops.md): the asset must be
 * granted to the job's creator now, with an account run-as and its policy pick among the accounts
 * the creator may connect with; the module must fit the asset's platform; and every line of the
 * command must pass the command filter rules for that user, asset and account (`reject` refuses on
 * that asset; `review` opens a command-confirm ticket for the rule's reviewers, as the terminal
 * does, and that asset waits for the answer while the others are planned: approved, it runs;
 * rejected, closed or the execution stopped, it is refused; `warning` runs). What is refused is a
 * per-asset result with its reason.
 */
export interface JobVersion {
  name: string;
  type: string;
  module: string;
  args: string;
  assets: string[];
  runas: string;
  runas_policy: string;
  timeout: number;
  chdir: string;
  /** A playbook job's playbook (ops/playbooks/), run by the Ansible runner. */
  playbook_id?: string | null;
}

export interface PlannedHost {
  host: RunnerHost;
  account: string;
}

export interface Refusal {
  result: HostResult;
  asset: string;
  account: string;
}

const refused = (assetId: string, asset: string, account: string, status: 'failed' | 'skipped', reason: string) => ({
  result: { assetId, status, reason, output: '', timeCost: 0 },
  asset,
  account,
});

/** The words of `SECURITY_COMMAND_BLACKLIST` the command uses (as whole words). */
export function blacklisted(args: string, list: unknown): string[] {
  const words = Array.isArray(list) ? list.map(String).filter(Boolean) : [];
  return words.filter((w) =>
    new RegExp(`(^|[^\\w-])${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w-])`).test(args),
  );
}

/** What a review needs from the execution: its id (the ticket's origin), its stop signal, its log. */
export interface ReviewContext {
  executionId: string;
  signal: AbortSignal;
  log(line: string): void;
}

export async function planHosts(
  app: FastifyInstance,
  v: JobVersion,
  user: { id: string; username: string },
  lang: Language,
  review?: ReviewContext,
): Promise<{ hosts: PlannedHost[]; refusals: Refusal[] }> {
  const db = app.deps.database.db;
  const g = { db, dialect: app.deps.database.dialect };
  const hosts: PlannedHost[] = [];
  const refusals: Refusal[] = [];
  /** Hosts waiting on a review ticket: each joins the hosts or the refusals once answered. */
  const pending: Promise<unknown>[] = [];
  const assets = v.assets.length
    ? await db
        .selectFrom('assets_asset')
        .select(['id', 'name', 'address', 'category', 'type', 'org_id', 'db_name', 'is_active', 'domain_id'])
        .where('id', 'in', v.assets)
        .orderBy('name')
        .execute()
    : [];
  const lines = v.args
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  for (const a of assets) {
    const name = `${a.name}(${a.address})`;
    const accounts = await connectableAccounts(g, user.id, a.id, a.org_id);
    if (!accounts.length) {
      refusals.push(refused(a.id, name, '', 'failed', 'not granted to you (connect) any more'));
      continue;
    }
    const account = pickAccount(accounts, v.runas, v.runas_policy);
    if (!account) {
      refusals.push(
        refused(a.id, name, '', 'skipped', `no account matches run as "${v.runas}" with policy ${v.runas_policy}`),
      );
      continue;
    }
    const accountName = `${account.name}(${account.username})`;
    // A playbook's tasks are its own: no module to fit, no command line to filter (as the original).
    const unfit = v.type === 'playbook' ? undefined : moduleFits(v.module, a.category, a.type);
    if (unfit) {
      refusals.push(refused(a.id, name, accountName, 'failed', unfit));
      continue;
    }
    const policy = new CommandPolicy(db, app.deps.settings, {
      orgId: a.org_id,
      userId: user.id,
      assetId: a.id,
      username: account.username,
      remoteAddr: '127.0.0.1',
    });
    let verdict: string | undefined;
    const reviews: { line: string; ruleId: string; ruleName: string; reviewers: string[] }[] = [];
    for (const line of lines) {
      const d = await policy.check(line);
      if (d?.action === 'reject') verdict = `command "${line}" refused by the command filter rule "${d.ruleName}"`;
      else if (d?.action === 'review')
        reviews.push({ line, ruleId: d.ruleId, ruleName: d.ruleName, reviewers: d.reviewers });
      if (verdict) break;
    }
    const reviewer = commandReviewer();
    if (!verdict && reviews.length && (!reviewer || !review))
      verdict = `command "${reviews[0]!.line}" needs a review by the rule "${reviews[0]!.ruleName}", and no reviewer can be asked here`;
    if (verdict) {
      refusals.push(refused(a.id, name, accountName, 'failed', verdict));
      continue;
    }
    // Each reviewed line of this asset asked in turn; other assets are planned meanwhile.
    const approved = reviews.length
      ? (async () => {
          for (const r of reviews) {
            review!.log(
              `[${name}] waiting: "${r.line}" needs a review by the rule "${r.ruleName}" (a ticket was sent)`,
            );
            const answer = await reviewer!({
              sessionId: review!.executionId,
              command: r.line,
              ruleId: r.ruleId,
              reviewers: r.reviewers,
              userId: user.id,
              orgId: a.org_id,
              assetId: a.id,
              accountId: account.id,
              signal: review!.signal,
              labels: { user: user.username, asset: name, account: accountName },
            }).catch(() => 'rejected' as const);
            if (answer !== 'approved')
              return `command "${r.line}" was not approved by a reviewer of the rule "${r.ruleName}"`;
          }
          return undefined;
        })()
      : undefined;
    const add = (entry: PlannedHost) => {
      if (!approved) return void hosts.push(entry);
      pending.push(
        approved.then((why) =>
          why ? void refusals.push(refused(a.id, name, accountName, 'failed', why)) : void hosts.push(entry),
        ),
      );
    };
    const base = {
      assetId: a.id,
      name,
      platformType: a.type,
      account: { id: account.id, name: account.name, username: account.username, privileged: account.privileged },
      ...(a.db_name ? { dbName: a.db_name } : {}),
    };
    if (a.category === 'database') {
      try {
        const connection = await databaseConnection(db, app.deps.secretBox, a, account.id, lang);
        add({ account: accountName, host: { ...base, connection } });
      } catch (e) {
        refusals.push(refused(a.id, name, accountName, 'failed', (e as Error).message));
      }
      continue;
    }
    try {
      const t = await resolveTarget(db, app.deps.secretBox, lang, a.id, account.id);
      if (t.su) throw new Error(`the account ${accountName} is reached with su from another account`);
      const c = t.target.credentials;
      add({
        account: accountName,
        host: {
          ...base,
          connection: {
            host: t.target.host,
            port: t.target.port,
            ...c,
            ...(t.gateway
              ? {
                  gateway: {
                    assetId: t.gateway.assetId,
                    host: t.gateway.host,
                    port: t.gateway.port,
                    ...t.gateway.credentials,
                  },
                }
              : {}),
          },
        },
      });
    } catch (e) {
      refusals.push(refused(a.id, name, accountName, 'failed', (e as Error).message));
    }
  }
  await Promise.all(pending);
  return { hosts, refusals };
}
