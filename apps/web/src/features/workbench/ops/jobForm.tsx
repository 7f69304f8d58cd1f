import i18n from 'i18next';
import { Input, type FormRule } from 'antd';
import type { FieldSpec } from '../../../resource/FormField.tsx';
import type { ResourceFormProps } from '../../../resource/ResourceForm.tsx';
import { choiceValue, MY_ASSETS_URL, PLAYBOOKS_URL } from './jobsApi.ts';
import { CrontabInput } from './CrontabInput.tsx';
import { executionPath } from './runJob.tsx';
import { crontabProblem, intervalProblem, periodicProblem, type Problem } from './schedule.ts';
import styles from './ops.module.css';

/** A rule from a check of one value (or of the whole form) that names its problem in the page's language. */
const rule =
  (check: (value: unknown, all: Record<string, unknown>) => Problem | null): FormRule =>
  ({ getFieldsValue }) => ({
    validator: async (_r, value: unknown) => {
      const p = check(value, getFieldsValue(true) as Record<string, unknown>);
      if (p) throw new Error(i18n.t(p.key, p.values));
    },
  });

const isPlaybook = (v: Record<string, unknown>) => choiceValue(v.type) === 'playbook';
const code = () => <Input.TextArea className={styles.code} autoSize={{ minRows: 4, maxRows: 20 }} spellCheck={false} />;

export const jobFieldSpecs: Record<string, FieldSpec> = {
  module: { widget: 'select', hidden: isPlaybook },
  args: { hidden: isPlaybook, render: code, label: 'jobs.field.args' },
  playbook: { widget: 'remote', url: PLAYBOOKS_URL, hidden: (v) => !isPlaybook(v) },
  assets: {
    widget: 'remoteMultiple',
    url: MY_ASSETS_URL,
    optionLabel: (o) => `${String(o.name)}(${String(o.address ?? '')})`,
  },
  runas_policy: { widget: 'select' },
  run_after_save: { hidden: (_v, ctx) => ctx.isUpdate },
  crontab: {
    hidden: (v) => !v.is_periodic,
    render: () => <CrontabInput />,
    rules: [rule((v) => crontabProblem(v))],
    helpText: 'jobs.schedule.crontabHelp',
  },
  interval: {
    widget: 'number',
    hidden: (v) => !v.is_periodic,
    rules: [rule((v) => intervalProblem(v)), rule((_v, all) => periodicProblem(all))],
    helpText: 'jobs.schedule.intervalHelp',
  },
  parameters_define: { widget: 'json', hidden: (v) => !v.use_parameter_define },
};

/** The job form (console reference "Jobs"): `?type=playbook` from the create menu picks the kind. */
export const jobForm: Omit<ResourceFormProps, 'url' | 'id'> = {
  groups: [
    { title: 'jobs.group.basic', fields: ['name', 'type'] },
    { title: 'jobs.group.task', fields: ['module', 'args', 'playbook', 'chdir', 'timeout'] },
    { title: 'jobs.group.assets', fields: ['assets', 'runas', 'runas_policy'] },
    { title: 'jobs.group.plan', fields: ['run_after_save', 'is_periodic', 'crontab', 'interval'] },
    { title: 'jobs.group.parameters', fields: ['use_parameter_define', 'parameters_define'] },
    { title: 'jobs.group.other', fields: ['comment'] },
  ],
  fieldsMeta: jobFieldSpecs,
  // A saved command's "Create job" gives its module and command (`?module=&args=`).
  initial: (q) => ({
    type: q.get('type') === 'playbook' ? 'playbook' : 'adhoc',
    module: q.get('module') || 'shell',
    args: q.get('args') ?? '',
    runas: 'root',
    runas_policy: 'skip',
    timeout: 60,
    crontab: '0 0 * * *',
  }),
  /** The crontab wins over the interval when both are given (spec 02 §5): an empty one is not sent. */
  cleanValues: (v) => {
    const out = { ...v };
    if (typeof out.crontab === 'string' && !out.crontab.trim()) out.crontab = '';
    // An empty interval is left out (the server keeps its own); so is one of a job that is not periodic.
    if (out.interval === undefined || out.interval === null || out.interval === '' || !out.is_periodic)
      delete out.interval;
    return out;
  },
  /** A job saved with "run after save" opens its execution. */
  successRoute: (saved) =>
    typeof saved.task_id === 'string' && saved.task_id
      ? executionPath(saved.task_id)
      : '/workbench/ops/job/?order=-date_updated',
};
