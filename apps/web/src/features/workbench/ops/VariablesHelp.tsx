import { useState } from 'react';
import { Button, Modal, Spin, Table } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../resource/errorMessage.ts';
import { jobsApi } from './jobsApi.ts';
import styles from './ops.module.css';

interface Variable {
  name: string;
  text: string;
}

/**
 * `variables/help/` as rows and a heading: `{help, variables: [{name, label}]}` (the server's), a
 * list of `{name, text|description|label}`, or a `{name: text}` object.
 */
export function variableHelp(data: unknown): { help: string; rows: Variable[] } {
  const d = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  const list = Array.isArray(data) ? data : Array.isArray(d?.variables) ? (d.variables as unknown[]) : undefined;
  if (list)
    return {
      help: typeof d?.help === 'string' ? d.help : '',
      rows: list.map((x) => {
        const o = (x ?? {}) as Record<string, unknown>;
        return {
          name: String(o.name ?? o.key ?? ''),
          text: String(o.label ?? o.text ?? o.description ?? o.desc ?? ''),
        };
      }),
    };
  return { help: '', rows: d ? Object.entries(d).map(([name, text]) => ({ name, text: String(text) })) : [] };
}

/** The variables a command or playbook may use (`{{ jms_asset.address }}`...), in a dialog. */
export function VariablesHelp() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const help = useQuery({ queryKey: ['ops', 'variables-help'], queryFn: jobsApi.variablesHelp, enabled: open });
  return (
    <>
      <Button icon={<QuestionCircleOutlined />} onClick={() => setOpen(true)} data-testid="variables-help">
        {t('jobs.quick.help')}
      </Button>
      <Modal open={open} title={t('jobs.quick.helpTitle')} footer={null} width={720} onCancel={() => setOpen(false)}>
        {help.isPending ? (
          <Spin />
        ) : help.error ? (
          errorMessage(help.error, t)
        ) : (
          <>
            {variableHelp(help.data).help && <p>{variableHelp(help.data).help}</p>}
            <Table<Variable>
              size="small"
              rowKey="name"
              pagination={false}
              dataSource={variableHelp(help.data).rows}
              columns={[
                {
                  key: 'name',
                  dataIndex: 'name',
                  title: t('jobs.quick.variable'),
                  render: (n: string) => <code className={styles.code}>{`{{ ${n} }}`}</code>,
                },
                { key: 'text', dataIndex: 'text', title: t('jobs.quick.meaning') },
              ]}
            />
          </>
        )}
      </Modal>
    </>
  );
}
