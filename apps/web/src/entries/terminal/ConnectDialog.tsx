import { useEffect, useState } from 'react';
import { Alert, Form, Input, Modal, Radio, Select, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { HttpError } from '../../lib/http.ts';
import {
  accountLabel,
  askFor,
  connectable,
  preselected,
  tokenBody,
  webMethods,
  pageProtocols,
  type ConnectMethod,
  type PermedAccount,
  type TokenBody,
} from './connectChoice.ts';
import { lunaApi } from './lunaApi.ts';
import { refusalKey, serverMessage } from './socketMessages.ts';

export interface ConnectTarget {
  assetId: string;
  assetName?: string;
  /** An account id or alias from a deep link. */
  account?: string;
  /** `k8s` for a Kubernetes asset (its token opens the cluster's tree); default `ssh`. */
  protocol?: string;
}

export interface Connected {
  token: string;
  body: TokenBody;
  title: string;
}

/** A refused token request in the user's language: the page's text for known codes, else the server's. */
export function refusalText(err: unknown, t: (k: string) => string): string {
  if (err instanceof HttpError) {
    const key = refusalKey(err.data);
    return key ? t(key) : serverMessage(err.data) || t('luna.connect.failed');
  }
  return t('luna.connect.failed');
}

/** Makes a connection token (the checks happen there) and names the tab after the asset and account. */
export async function connectWith(body: TokenBody, title: string): Promise<Connected> {
  const token = await lunaApi.createToken(body);
  return { token: token.id, body, title };
}

const PROTOCOL_LABELS: Record<string, string> = {
  ssh: 'SSH',
  k8s: 'Kubernetes',
  rdp: 'RDP',
  vnc: 'VNC',
  mysql: 'MySQL',
  mariadb: 'MariaDB',
  postgresql: 'PostgreSQL',
};

/**
 * The connect dialog of one asset: the permed accounts (connect action), the protocol and web
 * connect method, and what the account needs typed (@INPUT: username and password; @USER without
 * a stored namesake: the password). OK makes the token; a refusal is shown in the dialog.
 */
export function ConnectDialog({
  target,
  onConnected,
  onCancel,
}: {
  target: ConnectTarget;
  onConnected(c: Connected): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const [accounts, setAccounts] = useState<PermedAccount[] | undefined>();
  const [methods, setMethods] = useState<ConnectMethod[]>([]);
  const [chosen, setChosen] = useState<string | undefined>();
  const [method, setMethod] = useState('web_cli');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [assetName, setAssetName] = useState(target.assetName);
  const [form] = Form.useForm<{ username?: string; password?: string }>();
  // A k8s asset's protocol is fixed; another asset offers those of its protocols the page opens.
  const [protocols, setProtocols] = useState<string[]>([target.protocol ?? 'ssh']);
  const [protocol, setProtocol] = useState(target.protocol ?? 'ssh');
  const PROTOCOL = protocol;
  useEffect(() => {
    if (target.protocol) return;
    let live = true;
    void lunaApi
      .assetProtocols(target.assetId)
      .then((list) => {
        if (!live) return;
        const offered = pageProtocols(list);
        setProtocols(offered);
        setProtocol(offered[0]!);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [target.assetId, target.protocol]);
  useEffect(() => {
    let live = true;
    Promise.all([lunaApi.accounts(target.assetId), lunaApi.connectMethods(PROTOCOL)])
      .then(([list, all]) => {
        if (!live) return;
        setAccounts(connectable(list));
        const web = webMethods(all);
        setMethods(web);
        if (web[0]) setMethod(web[0].value);
        const pick = preselected(list, target.account);
        if (pick) setChosen((current) => current ?? pick.id);
      })
      .catch((e: unknown) => live && (setAccounts([]), setError(refusalText(e, t))));
    if (!target.assetName)
      void lunaApi
        .assetName(target.assetId)
        .then((name) => live && name && setAssetName(name))
        .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [target.assetId, target.assetName, target.account, PROTOCOL, t]);
  const account = accounts?.find((a) => a.id === chosen);
  const ask = account ? askFor(account) : { username: false, password: false };
  const title = t('luna.connect.title', { asset: assetName ?? '' });

  const submit = async () => {
    if (!account) return setError(t('luna.connect.pickAccount'));
    const typed = await form.validateFields();
    setBusy(true);
    setError(undefined);
    try {
      const body = tokenBody(target.assetId, account, PROTOCOL, method, typed);
      onConnected(await connectWith(body, `${assetName ?? ''} ${accountLabel(account, t)}`.trim()));
    } catch (e) {
      setError(refusalText(e, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={title}
      okText={t('luna.connect.ok')}
      onOk={() => void submit()}
      onCancel={onCancel}
      confirmLoading={busy}
      okButtonProps={{ disabled: !account, 'data-testid': 'connect-ok' } as never}
      destroyOnHidden
      data-testid="connect-dialog"
    >
      {!accounts ? (
        <Spin />
      ) : (
        <Form form={form} layout="vertical" data-testid="connect-form">
          {accounts.length === 0 && !error ? (
            <Alert type="warning" showIcon title={t('luna.connect.noAccounts')} />
          ) : null}
          <Form.Item label={t('luna.connect.account')} required>
            <Select
              value={chosen}
              onChange={setChosen}
              placeholder={t('luna.connect.pickAccount')}
              options={accounts.map((a) => ({ value: a.id, label: accountLabel(a, t) }))}
              data-testid="connect-account"
            />
          </Form.Item>
          <Form.Item label={t('luna.connect.protocol')}>
            <Radio.Group
              value={PROTOCOL}
              onChange={(e) => setProtocol(String(e.target.value))}
              options={protocols.map((p) => ({ value: p, label: PROTOCOL_LABELS[p] ?? p }))}
              data-testid="connect-protocol"
            />
          </Form.Item>
          <Form.Item label={t('luna.connect.method')}>
            <Radio.Group
              value={method}
              onChange={(e) => setMethod(String(e.target.value))}
              options={methods.map((m) => ({ value: m.value, label: m.label }))}
            />
          </Form.Item>
          {ask.username ? (
            <Form.Item
              name="username"
              label={t('luna.connect.username')}
              rules={[{ required: true, whitespace: true, message: t('luna.connect.usernameRequired') }]}
            >
              <Input autoComplete="off" data-testid="connect-username" />
            </Form.Item>
          ) : null}
          {ask.password ? (
            <Form.Item name="password" label={t('luna.connect.password')}>
              <Input.Password autoComplete="new-password" data-testid="connect-password" />
            </Form.Item>
          ) : null}
          {error ? <Alert type="error" showIcon title={error} data-testid="connect-error" /> : null}
        </Form>
      )}
    </Modal>
  );
}
