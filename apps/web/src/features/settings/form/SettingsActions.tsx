import { useState } from 'react';
import { App, Button, Space, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { http, HttpError } from '../../../lib/http.ts';
import { errorMessage } from '../../../resource/errorMessage.ts';

/** One button beside a settings form: a POST to `url` answering `{msg}`. */
export interface SettingsAction {
  /** The button's test id. */
  id: string;
  label: string;
  url: string;
  /** Sends the form's values, the unsaved ones included (default); false sends `{}` (the saved settings apply). */
  withValues?: boolean;
}

/**
 * The test buttons of the settings pages (mail, SMS backends, messengers, Vault): each posts and
 * shows the server's `{msg}`, or on a refusal its `msg` or first field error, in an element with
 * the test id `result`.
 */
export function SettingsActions({
  form,
  actions,
  result,
}: {
  form: FormInstance<Record<string, unknown>>;
  actions: SettingsAction[];
  result: string;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState<string | undefined>();
  const run = async (a: SettingsAction) => {
    setBusy(a.id);
    try {
      const r = await http.post<{ msg: string }>(a.url, a.withValues === false ? {} : form.getFieldsValue());
      void message.success(<span data-testid={result}>{r.msg}</span>);
    } catch (e) {
      let text = errorMessage(e, t);
      if (e instanceof HttpError && e.data && typeof e.data === 'object') {
        const d = e.data as Record<string, unknown>;
        const first = typeof d.msg === 'string' ? d.msg : Object.values(d).flat()[0];
        if (typeof first === 'string') text = first;
      }
      void message.error(<span data-testid={result}>{text}</span>);
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <Space>
      {actions.map((a) => (
        <Button key={a.id} onClick={() => void run(a)} loading={busy === a.id} data-testid={a.id}>
          {a.label}
        </Button>
      ))}
    </Space>
  );
}
