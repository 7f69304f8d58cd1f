import { useState } from 'react';
import { Alert, Button, Form, Input, Modal, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../lib/appStore.ts';
import { http } from '../../../lib/http.ts';
import { ResourceList } from '../../../resource/ResourceList.tsx';
import { resourcePaths } from '../../../resource/resourcePaths.ts';
import { TabPage } from '../../../resource/TabPage.tsx';
import { useAction } from '../../../resource/useAction.ts';
import { ADHOCS_URL, choiceValue, PLAYBOOKS_URL } from './jobsApi.ts';
import { OPS_BASE, playbookWorkspacePath } from './opsPaths.ts';
import { adhocPages, playbookPages } from './templatePages.tsx';

/** A playbook from a zip (`POST ops/playbooks/` multipart, the file in `path`), then its workspace. */
function UploadPlaybook() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const act = useAction({ inlineError: true });
  const upload = async () => {
    if (!file) return;
    const body = new FormData();
    body.append('path', file);
    body.append('name', name.trim() || file.name.replace(/\.zip$/i, ''));
    let id = '';
    const ok = await act.run(async () => {
      id = (await http.post<{ id: string }>(PLAYBOOKS_URL, body)).id;
    }, t('jobs.templates.uploaded'));
    if (ok) navigate(playbookWorkspacePath(id));
  };
  return (
    <>
      <Button icon={<UploadOutlined />} onClick={() => setOpen(true)} data-testid="playbook-upload">
        {t('jobs.templates.upload')}
      </Button>
      <Modal
        open={open}
        title={t('jobs.templates.upload')}
        okButtonProps={{ disabled: !file, loading: act.busy }}
        onOk={() => void upload()}
        onCancel={() => setOpen(false)}
      >
        {act.error && <Alert type="error" showIcon title={act.error} style={{ marginBottom: 12 }} />}
        <Form layout="vertical">
          <Form.Item label={t('jobs.templates.name')}>
            <Input
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder={file?.name.replace(/\.zip$/i, '')}
            />
          </Form.Item>
          <Form.Item label={t('jobs.templates.zip')} extra={t('jobs.templates.zipHelp')}>
            <Upload
              accept=".zip,application/zip"
              maxCount={1}
              beforeUpload={(f) => (setFile(f), false)}
              onRemove={() => setFile(null)}
            >
              <Button icon={<UploadOutlined />}>{t('jobs.templates.chooseFile')}</Button>
            </Upload>
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

/** A command job made from a saved command: the job form prefilled with its module and command. */
export const jobFromCommand = (row: Record<string, unknown>) =>
  `${OPS_BASE}/job/create?${new URLSearchParams({ type: 'adhoc', module: choiceValue(row.module), args: String(row.args ?? '') }).toString()}`;

/** `/workbench/ops/templates`: saved commands and playbooks in two tabs. */
export function TemplatesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const perms = useAppStore((s) => s.perms);
  const items = [
    {
      name: 'adhoc',
      title: t('jobs.templates.adhoc'),
      has: hasPermission(perms, 'ops.view_adhoc'),
      render: () => (
        <ResourceList
          url={ADHOCS_URL}
          urlQuery
          paths={resourcePaths(`${OPS_BASE}/adhoc`)}
          {...adhocPages.list}
          rowActions={{
            extra: [
              {
                name: 'createJob',
                title: 'jobs.templates.createJob',
                order: 5,
                onClick: (row) => navigate(jobFromCommand(row)),
              },
            ],
          }}
        />
      ),
    },
    {
      name: 'playbook',
      title: t('jobs.templates.playbook'),
      has: hasPermission(perms, 'ops.view_playbook'),
      render: () => (
        <ResourceList
          url={PLAYBOOKS_URL}
          urlQuery
          paths={resourcePaths(`${OPS_BASE}/playbook`)}
          {...playbookPages.list}
          headerActions={{ hasImport: false, extra: [{ key: 'upload', render: () => <UploadPlaybook /> }] }}
          rowActions={{
            extra: [
              {
                name: 'workspace',
                title: 'jobs.templates.workspace',
                order: 5,
                onClick: (row) => navigate(playbookWorkspacePath(row.id)),
              },
            ],
          }}
        />
      ),
    },
  ];
  return <TabPage items={items.filter((i) => i.has)} />;
}
