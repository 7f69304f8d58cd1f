import { useState } from 'react';
import { Alert, App, Button, Card, Empty, Input, Modal, Space, Spin, Tree, Typography } from 'antd';
import {
  ArrowLeftOutlined,
  DeleteOutlined,
  EditOutlined,
  FileAddOutlined,
  FolderAddOutlined,
  SaveOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { http } from '../../../lib/http.ts';
import { PLAYBOOKS_URL } from './jobsApi.ts';
import type { FileNode } from './playbookFiles.ts';
import { useWorkspace } from './useWorkspace.ts';
import styles from './ops.module.css';

type Naming = { kind: 'file' | 'folder' | 'rename'; name: string } | null;

const toData = (xs: FileNode[]): { key: string; title: string; isLeaf: boolean; children?: unknown[] }[] =>
  xs.map((x) => ({
    key: x.key,
    title: x.name,
    isLeaf: !x.isDir,
    ...(x.children ? { children: toData(x.children) } : {}),
  }));

const NAMING_TITLE = {
  file: 'jobs.workspace.newFile',
  folder: 'jobs.workspace.newFolder',
  rename: 'jobs.workspace.rename',
};

/**
 * `/workbench/ops/playbook/:id/workspace`: a playbook's files (the file API of its workspace) in a
 * tree beside a monospace editor; `main.yml` opens first. New file or folder (in the selected
 * folder), rename, save (also Ctrl+S) and delete; unsaved changes are not dropped without asking.
 */
export function PlaybookWorkspacePage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const { id = '' } = useParams();
  const playbook = useQuery({
    queryKey: ['ops', 'playbook', id],
    queryFn: () => http.get<{ name: string }>(`${PLAYBOOKS_URL}${id}/`),
  });
  const ws = useWorkspace(id);
  const [naming, setNaming] = useState<Naming>(null);

  /** Another file opens; changes to the open one are kept unless the person lets them go. */
  const openOther = (key: string) => {
    if (!ws.dirty || key === ws.open) return void ws.openFile(key);
    modal.confirm({
      title: t('jobs.workspace.unsaved', { name: ws.open }),
      okText: t('jobs.workspace.discard'),
      okButtonProps: { danger: true },
      onOk: () => ws.openFile(key),
    });
  };
  const remove = () => {
    const key = ws.selected;
    if (!key) return;
    modal.confirm({
      title: t('jobs.workspace.deleteConfirm', { name: key }),
      okButtonProps: { danger: true },
      onOk: () => ws.remove(key),
    });
  };
  const submitName = async () => {
    const name = naming?.name.trim();
    if (!naming || !name) return;
    const ok = naming.kind === 'rename' ? await ws.rename(name) : await ws.create(naming.kind, name);
    if (ok) setNaming(null);
  };

  return (
    <Card data-testid="playbook-workspace">
      <Space style={{ marginBottom: 12 }} wrap>
        <Button icon={<ArrowLeftOutlined />} aria-label={t('resource.back')} onClick={() => navigate(-1)} />
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('jobs.workspace.title', { name: playbook.data?.name ?? '' })}
        </Typography.Title>
        <Button
          icon={<FileAddOutlined />}
          onClick={() => setNaming({ kind: 'file', name: '' })}
          data-testid="ws-new-file"
        >
          {t('jobs.workspace.newFile')}
        </Button>
        <Button
          icon={<FolderAddOutlined />}
          onClick={() => setNaming({ kind: 'folder', name: '' })}
          data-testid="ws-new-folder"
        >
          {t('jobs.workspace.newFolder')}
        </Button>
        <Button
          icon={<EditOutlined />}
          disabled={!ws.selected}
          onClick={() => setNaming({ kind: 'rename', name: ws.selected?.split('/').pop() ?? '' })}
          data-testid="ws-rename"
        >
          {t('jobs.workspace.rename')}
        </Button>
        <Button icon={<DeleteOutlined />} danger disabled={!ws.selected} onClick={remove} data-testid="ws-delete">
          {t('jobs.workspace.delete')}
        </Button>
        <Button
          type="primary"
          icon={<SaveOutlined />}
          disabled={!ws.dirty}
          loading={ws.busy}
          onClick={() => void ws.save()}
          data-testid="ws-save"
        >
          {t('jobs.workspace.save')}
        </Button>
      </Space>
      {ws.error && <Alert type="error" showIcon title={ws.error} style={{ marginBottom: 12 }} />}
      <div className={styles.workspace}>
        <div className={`${styles.files} ${styles.treeBox}`} data-testid="ws-tree">
          {!ws.tree ? (
            <Spin className={styles.spin} />
          ) : !ws.tree.length ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
          ) : (
            <Tree.DirectoryTree
              treeData={toData(ws.tree)}
              defaultExpandAll
              selectedKeys={ws.selected ? [ws.selected] : []}
              onSelect={(keys, info) => {
                const key = String(keys[0] ?? '');
                if (key && info.node.isLeaf) openOther(key);
                else ws.setSelected(key || undefined);
              }}
            />
          )}
        </div>
        <div className={styles.editor}>
          <Typography.Text code data-testid="ws-open-file">
            {ws.open ? `${ws.open}${ws.dirty ? ' *' : ''}` : t('jobs.workspace.noFile')}
          </Typography.Text>
          <Input.TextArea
            className={`${styles.code} ${styles.editorArea}`}
            value={ws.content}
            disabled={!ws.open}
            onChange={(e) => ws.setContent(e.target.value)}
            onKeyDown={(e) => {
              if ((e.ctrlKey || e.metaKey) && e.key === 's') {
                e.preventDefault();
                if (ws.dirty) void ws.save();
              }
            }}
            spellCheck={false}
            aria-label={t('jobs.workspace.editor')}
            data-testid="ws-editor"
          />
        </div>
      </div>
      <Modal
        open={naming !== null}
        title={naming ? t(NAMING_TITLE[naming.kind]) : ''}
        okButtonProps={{ disabled: !naming?.name.trim(), loading: ws.busy }}
        onOk={() => void submitName()}
        onCancel={() => setNaming(null)}
        destroyOnHidden
      >
        <Input
          value={naming?.name ?? ''}
          onChange={(e) => setNaming((n) => n && { ...n, name: e.target.value })}
          onPressEnter={() => void submitName()}
          placeholder={t('jobs.workspace.name')}
          aria-label={t('jobs.workspace.name')}
          autoFocus
        />
      </Modal>
    </Card>
  );
}
