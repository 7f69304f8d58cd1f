import { useState, type ReactNode } from 'react';
import { Alert, Form, Input, Modal } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAction } from '../../../resource/useAction.ts';
import { jobsApi } from './jobsApi.ts';

export interface ParameterField {
  name: string;
  label: string;
  default: string;
}

/**
 * A job's `parameters_define` as inputs: JSON text or an object, `{name: {label, default}}` or a
 * list of `{name, label, default}`; anything unreadable defines none.
 */
export function parameterFields(define: unknown): ParameterField[] {
  let d = define;
  if (typeof d === 'string') {
    try {
      d = JSON.parse(d);
    } catch {
      return [];
    }
  }
  const entries: [string, unknown][] = Array.isArray(d)
    ? d.map((x: { name?: unknown }) => [String(x?.name ?? ''), x])
    : d && typeof d === 'object'
      ? Object.entries(d)
      : [];
  return entries
    .filter(([name]) => name)
    .map(([name, v]) => {
      const o = v && typeof v === 'object' ? (v as Record<string, unknown>) : { default: v };
      return { name, label: String(o.label ?? name), default: o.default == null ? '' : String(o.default) };
    });
}

interface RunnableJob {
  id: string;
  name?: string;
  use_parameter_define?: unknown;
  parameters_define?: unknown;
}

export const executionPath = (taskId: string) => `/workbench/ops/executions/${encodeURIComponent(taskId)}`;

/**
 * "Run" of a saved job: asks for its parameters first when the job defines them, then starts an
 * execution and opens it (its live output and results).
 */
export function useRunJob(): { start(job: RunnableJob): void; dialog: ReactNode } {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [job, setJob] = useState<RunnableJob | null>(null);
  const [form] = Form.useForm<Record<string, string>>();
  const action = useAction({ inlineError: true });
  const launch = async (j: RunnableJob, parameters: Record<string, string>) => {
    let taskId = '';
    const ok = await action.run(async () => {
      taskId = (await jobsApi.runJob(j.id, parameters)).task_id;
    });
    if (ok) {
      setJob(null);
      navigate(executionPath(taskId));
    }
    return ok;
  };
  const fields = job ? parameterFields(job.parameters_define) : [];
  const start = (j: RunnableJob) => {
    action.setError(null);
    const defined = j.use_parameter_define ? parameterFields(j.parameters_define) : [];
    if (!defined.length) {
      void launch(j, {}).then((ok) => !ok && setJob(j));
      return;
    }
    form.setFieldsValue(Object.fromEntries(defined.map((f) => [f.name, f.default])));
    setJob(j);
  };
  const dialog = (
    <Modal
      open={job !== null}
      title={t('jobs.run.title', { name: job?.name ?? '' })}
      okText={t('jobs.run.ok')}
      okButtonProps={{ loading: action.busy }}
      onCancel={() => setJob(null)}
      onOk={async () => {
        if (!job) return;
        const values = fields.length ? await form.validateFields() : {};
        await launch(job, values);
      }}
      forceRender
    >
      {action.error && <Alert type="error" showIcon title={action.error} style={{ marginBottom: 12 }} />}
      <Form form={form} layout="vertical" data-testid="run-parameters">
        {fields.map((f) => (
          <Form.Item key={f.name} name={f.name} label={f.label}>
            <Input />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
  return { start, dialog };
}
