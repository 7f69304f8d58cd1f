import '../../../../resource/testing/setup.ts';
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Button, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { ProtocolsField, protocolsRule } from './ProtocolsField.tsx';
import type { ProtocolChoice, ProtocolRow } from './protocolRules.ts';

const linux: ProtocolChoice[] = [
  { name: 'ssh', port: 22, primary: true, required: true },
  { name: 'sftp', port: 22, default: true },
  { name: 'telnet', port: 23 },
];

function Harness({
  initial,
  mode = 'asset',
  onFinish,
}: {
  initial: ProtocolRow[];
  mode?: 'asset' | 'platform';
  onFinish?(v: unknown): void;
}) {
  const { t } = useTranslation();
  return (
    <Form initialValues={{ protocols: initial }} onFinish={onFinish}>
      <Form.Item name="protocols" label="Protocols" rules={[protocolsRule(t, linux, mode)]}>
        <ProtocolsField choices={linux} mode={mode} />
      </Form.Item>
      <Button htmlType="submit">save</Button>
    </Form>
  );
}

describe('ProtocolsField', () => {
  it('shows "Port Error, please check" for a bad port and marks the input', async () => {
    render(<Harness initial={[{ name: 'ssh', port: 22, primary: true }]} />);
    const port = screen.getByTestId('protocol-port-0');
    fireEvent.change(port, { target: { value: '70000' } });
    fireEvent.click(screen.getByText('save'));
    expect(await screen.findByText('Port Error, please check')).toBeTruthy();
    expect(port.className).toContain('status-error');
    fireEvent.change(port, { target: { value: '2222' } });
    await waitFor(() => expect(screen.queryByText('Port Error, please check')).toBeNull());
  });

  it('never deletes the last row nor the primary; others go; adding takes the next protocol', async () => {
    let saved: unknown;
    render(
      <Harness
        initial={[{ name: 'ssh', port: 22, primary: true }]}
        onFinish={(v) => {
          saved = v;
        }}
      />,
    );
    expect((screen.getByTestId('protocol-remove-0') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId('protocol-add'));
    await screen.findByTestId('protocol-row-1');
    expect((screen.getByTestId('protocol-port-1') as HTMLInputElement).value).toBe('22');
    expect((screen.getByTestId('protocol-remove-0') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('protocol-remove-1') as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(screen.getByTestId('protocol-remove-1'));
    await waitFor(() => expect(screen.queryByTestId('protocol-row-1')).toBeNull());
    fireEvent.click(screen.getByText('save'));
    await waitFor(() => expect(saved).toEqual({ protocols: [{ name: 'ssh', port: 22, primary: true }] }));
  });

  it('on platforms, exactly one primary is required and a click moves it', async () => {
    let saved: unknown;
    render(
      <Harness
        mode="platform"
        initial={[
          { name: 'ssh', port: 22 },
          { name: 'telnet', port: 23 },
        ]}
        onFinish={(v) => {
          saved = v;
        }}
      />,
    );
    fireEvent.click(screen.getByText('save'));
    expect(await screen.findByText('Exactly one protocol must be primary')).toBeTruthy();
    fireEvent.click(screen.getByTestId('protocol-primary-1'));
    fireEvent.click(screen.getByText('save'));
    await waitFor(() =>
      expect(saved).toEqual({
        protocols: [
          { name: 'ssh', port: 22, primary: false },
          { name: 'telnet', port: 23, primary: true },
        ],
      }),
    );
  });
});
