import type { Kysely } from 'kysely';
import type { DB } from '../../../platform/db/schema.ts';
import type { SettingsStore } from '../../settings/store.ts';
import {
  byPriority,
  decide,
  ruleHoldsExceptCommand,
  systemTimeZone,
  type AclRule,
  type Situation,
  type Subject,
} from '../../acls/matcher/rules.ts';
import { loadAclRules } from '../../acls/ruleLoader.ts';
import { loadAssets, loadUsers } from '../../acls/subjects.ts';

/**
 * The command filter rules of one session: loaded per command (a rule changed mid-session
 * applies to the next command) and decided by the one matcher of `modules/acls/matcher`.
 */
export interface CommandVerdict {
  action: AclRule['action'];
  ruleId: string;
  ruleName: string;
  reviewers: string[];
}

/** Risk levels of the contract's session commands. */
export const RISK = { accept: 0, warning: 4, reject: 5, reviewReject: 6, reviewAccept: 7, reviewCancel: 8 } as const;

export class CommandPolicy {
  private user?: Subject;
  private asset?: Subject;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly settings: SettingsStore,
    private readonly s: { orgId: string; userId: string; assetId: string; username: string; remoteAddr: string },
  ) {}

  private async subjects(): Promise<void> {
    if (this.user && this.asset) return;
    this.user = (await loadUsers(this.db, { ids: [this.s.userId] }))[0] ?? { id: this.s.userId, attrs: {} };
    this.asset = (await loadAssets(this.db, { ids: [this.s.assetId], orgId: this.s.orgId }))[0] ?? {
      id: this.s.assetId,
      attrs: {},
    };
  }

  /** The situation of a command here and now (without the command). */
  private async situation(): Promise<Situation> {
    await this.subjects();
    const zone = String((await this.settings.get('TIME_ZONE')) || systemTimeZone());
    return {
      user: this.user!,
      asset: this.asset!,
      account: { username: this.s.username },
      ip: this.s.remoteAddr,
      at: new Date(),
      timeZone: zone,
    };
  }

  async check(command: string): Promise<CommandVerdict | undefined> {
    const rules = await loadAclRules(this.db, 'commandFilter', { orgId: this.s.orgId });
    if (!rules.length) return undefined;
    const d = decide(rules, { ...(await this.situation()), command });
    if (!d) return undefined;
    return { action: d.action, ruleId: d.rule.id, ruleName: d.rule.name, reviewers: d.rule.reviewers };
  }

  /** Several commands of one input (a database query's statements) against the rules read once. */
  async checkMany(commands: string[]): Promise<(CommandVerdict | undefined)[]> {
    const rules = await loadAclRules(this.db, 'commandFilter', { orgId: this.s.orgId });
    if (!rules.length) return commands.map(() => undefined);
    const situation = await this.situation();
    return commands.map((command) => {
      const d = decide(rules, { ...situation, command });
      return d
        ? { action: d.action, ruleId: d.rule.id, ruleName: d.rule.name, reviewers: d.rule.reviewers }
        : undefined;
    });
  }

  /**
   * The first rule (by priority) that may refuse or hold a command of this session here and now:
   * a reject rule, or a review rule with reviewers, whose every condition but the command holds.
   * What cannot be read line by line (an exec's input, a line typed without echo with editing
   * keys) is refused while there is one.
   */
  async restricting(): Promise<CommandVerdict | undefined> {
    const rules = await loadAclRules(this.db, 'commandFilter', { orgId: this.s.orgId });
    const candidates = rules.filter((r) => r.action === 'reject' || (r.action === 'review' && r.reviewers.length > 0));
    if (!candidates.length) return undefined;
    const situation = await this.situation();
    const rule = byPriority(candidates).find((r) => ruleHoldsExceptCommand(r, situation));
    return rule && { action: rule.action, ruleId: rule.id, ruleName: rule.name, reviewers: rule.reviewers };
  }
}
