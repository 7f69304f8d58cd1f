import { useEffect, useState } from 'react';
import { Alert, Button, Card, Descriptions, Form, Input, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { http } from '../../../lib/http.ts';
import { useAction } from '../../../resource/useAction.ts';
import { VIRTUAL } from './accountApi.ts';

interface VirtualAccount {
  id: string;
  alias: string;
  name: string;
  username: string;
  comment: string;
  secret_from_login: boolean | null;
}

/** A virtual account's page; `edit` shows the form (only @USER can change: `secret_from_login`, comment). */
export function VirtualAccountPage({ edit }: { edit?: boolean }) {
  const { t } = useTranslation();
  const { id } = useParams();
  const navigate = useNavigate();
  const [row, setRow] = useState<VirtualAccount | null>(null);
  const action = useAction({ inlineError: true });
  useEffect(() => {
    void http.get<VirtualAccount>(`${VIRTUAL}${id}/`).then(setRow);
  }, [id]);
  if (!row) return null;
  const editable = edit && row.alias === '@USER';
  return (
    <Card title={`${t('accounts.kind.VirtualAccount')}: ${row.name}`}>
      {action.error && <Alert type="error" message={action.error} style={{ marginBottom: 12 }} />}
      {editable ? (
        <Form
          layout="vertical"
          initialValues={{ secret_from_login: Boolean(row.secret_from_login), comment: row.comment }}
          onFinish={(v: Record<string, unknown>) =>
            void action
              .run(() => http.patch(`${VIRTUAL}${row.id}/`, v), t('accounts.saved'))
              .then((ok) => ok && navigate(`/console/accounts/virtual-accounts/${row.id}`))
          }
        >
          <Form.Item label={t('accounts.field.username')}>
            <Input value={row.username} disabled />
          </Form.Item>
          <Form.Item name="secret_from_login" label={t('accounts.field.secretFromLogin')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="comment" label={t('accounts.field.comment')}>
            <Input.TextArea rows={2} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={action.busy}>
            {t('accounts.action.save')}
          </Button>
        </Form>
      ) : (
        <>
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label={t('accounts.field.name')}>{row.name}</Descriptions.Item>
            <Descriptions.Item label={t('accounts.field.username')}>{row.username}</Descriptions.Item>
            <Descriptions.Item label={t('accounts.field.secretFromLogin')}>
              {row.secret_from_login === null ? '-' : String(row.secret_from_login)}
            </Descriptions.Item>
            <Descriptions.Item label={t('accounts.field.comment')}>{row.comment || '-'}</Descriptions.Item>
          </Descriptions>
          {row.alias === '@USER' && (
            <Button
              style={{ marginTop: 12 }}
              onClick={() => navigate(`/console/accounts/virtual-accounts/${row.id}/update`)}
            >
              {t('resource.update')}
            </Button>
          )}
        </>
      )}
    </Card>
  );
}
