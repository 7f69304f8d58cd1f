import { Form, Input } from 'antd';
import { CommandTestBox } from './CommandTestBox.tsx';

export interface CommandContentFieldProps {
  value?: string;
  onChange?(value: string): void;
}

/** A command group's content (one command or regex per line) with the test box under it. */
export function CommandContentField({ value, onChange }: CommandContentFieldProps) {
  const form = Form.useFormInstance();
  const type = Form.useWatch('type', form) as unknown;
  const ignoreCase = Form.useWatch('ignore_case', form) as unknown;
  return (
    <div>
      <Input.TextArea
        rows={6}
        spellCheck={false}
        data-testid="command-content"
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        style={{ fontFamily: 'monospace', marginBottom: 12 }}
      />
      <CommandTestBox group={{ type, content: value, ignore_case: ignoreCase }} />
    </div>
  );
}
