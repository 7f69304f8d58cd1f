import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Input, Select, Typography } from 'antd';
import { CaretRightOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { TreeSplit } from '../../console/assets/assetList/TreeSplit.tsx';
import { errorMessage } from '../../../resource/errorMessage.ts';
import { CentreDisabled } from './CentreDisabled.tsx';
import { ExecutionOutput } from './ExecutionOutput.tsx';
import { JobTargetTree } from './JobTargetTree.tsx';
import { isCentreDisabled, jobsApi, MODULES, RUNAS_POLICIES } from './jobsApi.ts';
import {
  fromJob,
  instantJobBody,
  NO_TARGETS,
  QUICK_JOB_DEFAULTS,
  runProblems,
  targetCount,
  TIMEOUTS,
  type QuickJobValues,
} from './quickJob.ts';
import { RunasInput } from './RunasInput.tsx';
import { SavedCommands } from './SavedCommands.tsx';
import { VariablesHelp } from './VariablesHelp.tsx';
import styles from './ops.module.css';

/**
 * `/workbench/ops/quick-job`: targets from the granted tree, run-as, policy, module, timeout and
 * working directory, a command (or a saved one); Run makes an instant job and puts its task id in
 * the address (`?taskId=`), so a reload shows the same run again with its values.
 */
export function QuickJobPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const taskId = params.get('taskId') ?? '';
  const [values, setValues] = useState<QuickJobValues>(QUICK_JOB_DEFAULTS);
  const [targets, setTargets] = useState(NO_TARGETS);
  const [problems, setProblems] = useState<string[]>([]);
  const [runError, setRunError] = useState<unknown>(null);
  const [running, setRunning] = useState(false);
  const restored = useRef(false);
  const set = (patch: Partial<QuickJobValues>) => setValues((v) => ({ ...v, ...patch }));

  useEffect(() => {
    if (!taskId || restored.current) return;
    restored.current = true;
    jobsApi
      .taskDetail(taskId)
      .then((d) => jobsApi.job(d.job_id))
      .then((job) => {
        const r = fromJob(job);
        setValues(r.values);
        setTargets(r.targets);
      })
      .catch(() => undefined);
  }, [taskId]);

  const run = async () => {
    const found = runProblems(values, targets);
    setProblems(found);
    setRunError(null);
    if (found.length) return;
    setRunning(true);
    try {
      const job = await jobsApi.runInstant(instantJobBody(values, targets));
      restored.current = true;
      setParams({ taskId: job.task_id });
    } catch (e) {
      setRunError(e);
    } finally {
      setRunning(false);
    }
  };

  if (isCentreDisabled(runError)) return <CentreDisabled />;
  const count = targetCount(targets);
  return (
    <TreeSplit tree={<JobTargetTree value={targets} onChange={setTargets} />}>
      <Card data-testid="quick-job">
        <div className={styles.toolbar}>
          <Button
            type="primary"
            icon={<CaretRightOutlined />}
            loading={running}
            onClick={() => void run()}
            data-testid="quick-run"
          >
            {t('jobs.quick.run')}
          </Button>
          <RunasInput value={values.runas} onChange={(runas) => set({ runas })} targets={targets} />
          <Select
            value={values.runas_policy}
            onChange={(runas_policy: string) => set({ runas_policy })}
            options={RUNAS_POLICIES.map((p) => ({ value: p, label: t(`jobs.policy.${p}`) }))}
            style={{ width: 170 }}
            aria-label={t('jobs.field.runasPolicy')}
            data-testid="quick-policy"
          />
          <Select
            value={values.module}
            onChange={(module: string) => set({ module })}
            options={MODULES.map((m) => ({ value: m, label: t(`jobs.module.${m}`) }))}
            style={{ width: 130 }}
            aria-label={t('jobs.field.module')}
            data-testid="quick-module"
          />
          <Select
            value={values.timeout}
            onChange={(timeout: number) => set({ timeout })}
            options={TIMEOUTS.map((s) => ({
              value: s,
              label: s < 0 ? t('jobs.quick.noTimeout') : t('jobs.quick.seconds', { count: s }),
            }))}
            style={{ width: 110 }}
            aria-label={t('jobs.field.timeout')}
            data-testid="quick-timeout"
          />
          <Input
            value={values.chdir}
            onChange={(e) => set({ chdir: e.target.value })}
            placeholder={t('jobs.field.chdir')}
            aria-label={t('jobs.field.chdir')}
            style={{ width: 160 }}
          />
        </div>
        <div className={styles.toolbar}>
          <SavedCommands module={values.module} args={values.args} onPick={(a) => set(a)} />
          <VariablesHelp />
          <Typography.Text type="secondary" data-testid="quick-target-count">
            {t('jobs.quick.targetCount', { assets: count.assets, nodes: count.nodes })}
          </Typography.Text>
        </div>
        <Input.TextArea
          className={styles.code}
          value={values.args}
          onChange={(e) => set({ args: e.target.value })}
          autoSize={{ minRows: 6, maxRows: 16 }}
          spellCheck={false}
          placeholder={t('jobs.quick.commandPlaceholder')}
          aria-label={t('jobs.field.args')}
          data-testid="quick-command"
        />
        {problems.length > 0 && (
          <Alert
            type="warning"
            showIcon
            style={{ marginTop: 12 }}
            data-testid="quick-problems"
            title={
              <>
                {problems.map((p) => (
                  <div key={p}>{t(p)}</div>
                ))}
              </>
            }
          />
        )}
        {runError != null && (
          <Alert
            type="error"
            showIcon
            style={{ marginTop: 12 }}
            title={errorMessage(runError, t)}
            data-testid="quick-error"
          />
        )}
        {taskId && (
          <div style={{ marginTop: 12 }}>
            <ExecutionOutput key={taskId} taskId={taskId} />
          </div>
        )}
      </Card>
    </TreeSplit>
  );
}
