import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Alert,
  App,
  Breadcrumb,
  Button,
  Card,
  Input,
  Progress,
  Select,
  Space,
  Spin,
  Table,
  Tooltip,
  Upload,
} from 'antd';
import dayjs from 'dayjs';
import { AssetPicker } from './AssetPicker.tsx';
import { errorText, join, sftpApi, type Entry, type Opened, type PermedAccount } from './sftpApi.ts';

/**
 * The file manager: breadcrumb, the folder's table (name, size, modified, type), a drop zone
 * uploading each file with its progress bar, download, new folder, rename and delete (confirmed).
 * A button the permission does not allow is disabled with a tooltip saying which action is missing.
 */
const t_ = (k: string) => `fileManager.${k}`;
/** The page without an asset: the asset picker. */
const FILE_MANAGER_HOME = '/koko/elfinder/sftp/';

function size(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  for (; v >= 1024 && i < units.length - 1; i++) v /= 1024;
  return `${v.toFixed(1)} ${units[i]}`;
}

interface Transfer {
  name: string;
  percent: number;
  error?: string;
}

function AccountChoice({ assetId, onToken }: { assetId: string; onToken: (token: string) => void }) {
  const { t } = useTranslation();
  const [accounts, setAccounts] = useState<PermedAccount[]>();
  const [picked, setPicked] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    sftpApi.accounts(assetId).then(setAccounts, (e: unknown) => setError(errorText(e)));
  }, [assetId]);
  if (error) return <Alert type="error" message={error} />;
  if (!accounts) return <Spin />;
  if (!accounts.length) return <Alert type="warning" message={t(t_('noAccounts'))} />;
  return (
    <Space>
      <Select
        style={{ minWidth: 260 }}
        placeholder={t(t_('chooseAccount'))}
        value={picked}
        onChange={setPicked}
        options={accounts.map((a) => ({ value: a.alias || a.id, label: `${a.name}(${a.username})` }))}
        data-testid="account-select"
      />
      <Button
        type="primary"
        disabled={!picked}
        onClick={() =>
          sftpApi.token(assetId, picked!).then(
            (tok) => onToken(tok.id),
            (e: unknown) => setError(errorText(e)),
          )
        }
      >
        {t(t_('open'))}
      </Button>
    </Space>
  );
}

function Browser({ session }: { session: Opened }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const [dir, setDir] = useState('/');
  const [entries, setEntries] = useState<Entry[]>([]);
  const [loading, setLoading] = useState(false);
  const [transfers, setTransfers] = useState<Transfer[]>([]);
  const can = (action: string) => session.actions.includes(action);
  const gate = (action: string) => (can(action) ? {} : { disabled: true, title: t(t_('notPermitted'), { action }) });

  const load = useCallback(
    (path: string) => {
      setLoading(true);
      sftpApi
        .list(session.id, path)
        .then(
          (r) => {
            setDir(r.path);
            setEntries(r.entries);
          },
          (e: unknown) => void message.error(errorText(e)),
        )
        .finally(() => setLoading(false));
    },
    [session.id, message],
  );
  useEffect(() => load('/'), [load]);
  useEffect(() => {
    const bye = () => sftpApi.close(session.id);
    window.addEventListener('pagehide', bye);
    return () => window.removeEventListener('pagehide', bye);
  }, [session.id]);

  const run = (p: Promise<unknown>) =>
    p.then(
      () => load(dir),
      (e: unknown) => void message.error(errorText(e)),
    );
  const ask = (title: string, initial: string, then: (v: string) => void) => {
    let value = initial;
    modal.confirm({
      title,
      icon: null,
      content: <Input autoFocus defaultValue={initial} onChange={(e) => (value = e.target.value)} />,
      onOk: () => value.trim() && then(value.trim()),
    });
  };
  const upload = (file: File) => {
    const row: Transfer = { name: file.name, percent: 0 };
    setTransfers((list) => [...list, row]);
    const update = (patch: Partial<Transfer>) =>
      setTransfers((list) => list.map((x) => (x === row ? Object.assign(row, patch) && { ...row } : x)));
    sftpApi
      .upload(session.id, dir, file, (percent) => update({ percent }))
      .then(
        () => {
          update({ percent: 100 });
          void message.success(t(t_('uploaded'), { name: file.name }));
          load(dir);
        },
        (e: Error) => update({ error: e.message }),
      );
  };

  const parts = dir.split('/').filter(Boolean);
  const actionButton = (action: string, label: string, onClick: () => void, danger = false) => {
    const g = gate(action);
    return (
      <Tooltip title={g.title}>
        <Button size="small" danger={danger} disabled={g.disabled} onClick={onClick}>
          {label}
        </Button>
      </Tooltip>
    );
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <Space style={{ justifyContent: 'space-between', width: '100%' }} wrap>
        <Breadcrumb
          items={[
            { title: <a onClick={() => load('/')}>{`${t(t_('home'))} (${session.home})`}</a> },
            ...parts.map((p, i) => ({ title: <a onClick={() => load(`/${parts.slice(0, i + 1).join('/')}`)}>{p}</a> })),
          ]}
        />
        <Space>
          <Button onClick={() => load(dir)}>{t(t_('refresh'))}</Button>
          <Tooltip title={gate('upload').title}>
            <Button
              disabled={!can('upload')}
              onClick={() => ask(t(t_('folderName')), '', (name) => run(sftpApi.mkdir(session.id, join(dir, name))))}
            >
              {t(t_('newFolder'))}
            </Button>
          </Tooltip>
        </Space>
      </Space>
      <Tooltip title={gate('upload').title}>
        <div>
          <Upload.Dragger
            multiple
            disabled={!can('upload')}
            showUploadList={false}
            beforeUpload={(file) => {
              upload(file);
              return false;
            }}
            data-testid="upload-zone"
          >
            <p>{t(t_('dropHint'))}</p>
          </Upload.Dragger>
        </div>
      </Tooltip>
      {transfers.map((x, i) => (
        <div key={i} data-testid="transfer">
          <span>{x.error ? t(t_('failed'), { name: x.name, error: x.error }) : x.name}</span>
          <Progress percent={x.percent} status={x.error ? 'exception' : x.percent === 100 ? 'success' : 'active'} />
        </div>
      ))}
      <Table<Entry>
        rowKey="name"
        size="small"
        loading={loading}
        dataSource={entries}
        pagination={false}
        columns={[
          {
            title: t(t_('name')),
            dataIndex: 'name',
            render: (name: string, e) =>
              e.type === 'dir' ? <a onClick={() => load(join(dir, name))}>{name}/</a> : name,
          },
          {
            title: t(t_('size')),
            dataIndex: 'size',
            width: 110,
            render: (n: number, e) => (e.type === 'dir' ? '-' : size(n)),
          },
          {
            title: t(t_('modified')),
            dataIndex: 'mtime',
            width: 180,
            render: (m: number) => dayjs.unix(m).format('YYYY-MM-DD HH:mm:ss'),
          },
          { title: t(t_('type')), dataIndex: 'type', width: 90, render: (v: string) => t(t_(v)) },
          {
            title: t(t_('actions')),
            width: 260,
            render: (_: unknown, e) => (
              <Space>
                {e.type !== 'dir' &&
                  actionButton('download', t(t_('download')), () => {
                    window.location.href = sftpApi.downloadUrl(session.id, join(dir, e.name));
                  })}
                {actionButton('delete', t(t_('rename')), () =>
                  ask(t(t_('newName')), e.name, (name) =>
                    run(sftpApi.rename(session.id, join(dir, e.name), join(dir, name))),
                  ),
                )}
                {actionButton(
                  'delete',
                  t(t_('delete')),
                  () =>
                    modal.confirm({
                      title: t(t_('confirmDelete'), { name: e.name }),
                      okButtonProps: { danger: true },
                      onOk: () => run(sftpApi.remove(session.id, join(dir, e.name))),
                    }),
                  true,
                )}
              </Space>
            ),
          },
        ]}
      />
    </Space>
  );
}

export function FileManagerPage({ search }: { search: string }) {
  const { t } = useTranslation();
  const q = new URLSearchParams(search);
  const [token, setToken] = useState(q.get('token') ?? '');
  const [session, setSession] = useState<Opened>();
  const [error, setError] = useState<string>();
  const assetId = q.get('asset') ?? '';
  useEffect(() => {
    document.title = `${t(t_('title'))} - Gatehouse`;
  }, [t]);
  useEffect(() => {
    if (!token) return;
    sftpApi.open(token).then(setSession, (e: unknown) => setError(errorText(e)));
  }, [token]);
  const title = session
    ? `${t(t_('title'))} · ${session.asset.name} · ${session.account.name}(${session.account.username})`
    : t(t_('title'));
  let body;
  if (error) body = <Alert type="error" message={error} />;
  else if (session) body = <Browser session={session} />;
  else if (token)
    body = (
      <Spin tip={t(t_('connecting'))}>
        <div style={{ height: 80 }} />
      </Spin>
    );
  else if (assetId) body = <AccountChoice assetId={assetId} onToken={setToken} />;
  else body = <AssetPicker />;
  // Back to the asset list from an asset's account choice or its files.
  const back = assetId ? <a href={FILE_MANAGER_HOME}>{t(t_('allAssets'))}</a> : undefined;
  return (
    <div style={{ padding: 24, maxWidth: 1200, margin: '0 auto' }}>
      <Card title={title} extra={back}>
        {body}
      </Card>
    </div>
  );
}
