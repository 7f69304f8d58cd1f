import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Form, Input, Segmented, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../../lib/appStore.ts';
import { TOOL_FIELDS, TOOLS, runTool, type Tool } from './toolsSocket.ts';

/**
 * Settings › Tools: ping, telnet, nmap, tcpdump and traceroute run on the Gatehouse server, their
 * output shown line by line as it comes (the server checks every value: modules/settings/tools/).
 */
export function ToolsPage() {
  const { t } = useTranslation();
  const isSuperuser = useAppStore((s) => Boolean(s.profile?.is_superuser));
  const [tool, setTool] = useState<Tool>('Ping');
  const [output, setOutput] = useState('');
  const [running, setRunning] = useState(false);
  const stop = useRef<(() => void) | undefined>(undefined);
  const [form] = Form.useForm<Record<string, string>>();
  useEffect(() => () => stop.current?.(), []);

  const run = (values: Record<string, string>) => {
    stop.current?.();
    setOutput('');
    setRunning(true);
    const body: Record<string, unknown> = { tool_type: tool };
    for (const f of TOOL_FIELDS[tool]) if (values[f]?.trim()) body[f] = values[f].trim();
    stop.current = runTool(
      body,
      (line) => setOutput((o) => o + line.replace(/\r\n/g, '\n')),
      () => setRunning(false),
    );
  };

  return (
    <Card>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Alert type={isSuperuser ? 'info' : 'warning'} showIcon message={t('settingsTerminal.tools.hint')} />
        <Segmented<Tool>
          options={[...TOOLS]}
          value={tool}
          onChange={(v) => {
            setTool(v);
            setOutput('');
          }}
          data-testid="tool-choice"
        />
        <Form form={form} layout="inline" onFinish={run} data-testid="tool-form">
          {TOOL_FIELDS[tool].map((f) => (
            <Form.Item key={f} name={f} label={t(`settingsTerminal.tools.${f}`)}>
              <Input name={f} style={{ width: f === 'dest_ips' ? 240 : 120 }} />
            </Form.Item>
          ))}
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={running} disabled={!isSuperuser}>
              {t(running ? 'settingsTerminal.tools.running' : 'settingsTerminal.tools.run')}
            </Button>
          </Form.Item>
        </Form>
        <pre
          data-testid="tool-output"
          style={{
            background: '#1e1e1e',
            color: '#d4d4d4',
            minHeight: 320,
            maxHeight: 520,
            overflow: 'auto',
            padding: 12,
            margin: 0,
            whiteSpace: 'pre-wrap',
          }}
        >
          {output}
        </pre>
      </Space>
    </Card>
  );
}
