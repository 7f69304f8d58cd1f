import { Input, Select, Space } from 'antd';

/** A phone number with its country code (PhoneField: out `{code, phone}`, in that or a string). */
export interface Phone {
  code: string;
  phone: string;
}

const CODES = ['+86', '+1', '+81', '+82', '+44', '+49', '+33', '+852', '+853', '+886', '+65', '+61', '+91'];
const DEFAULT_CODE = '+86';

/** `+8613800000000` or `+86 138…` → code and number; a bare number keeps the default code. */
export function parsePhone(value: unknown): Phone {
  if (value && typeof value === 'object') {
    const p = value as Partial<Phone>;
    return { code: p.code || DEFAULT_CODE, phone: String(p.phone ?? '') };
  }
  const s = typeof value === 'string' ? value.trim() : '';
  const code = [...CODES].sort((a, b) => b.length - a.length).find((c) => s.startsWith(c));
  return code ? { code, phone: s.slice(code.length).trim() } : { code: DEFAULT_CODE, phone: s };
}

export interface PhoneInputProps {
  value?: Phone | string | null;
  onChange?(v: Phone | string | null): void;
  /** Send `+<code><number>` text (the field is a plain string) instead of `{code, phone}`. */
  asText?: boolean;
  id?: string;
}

export function PhoneInput({ value, onChange, asText, id }: PhoneInputProps) {
  const { code, phone } = parsePhone(value);
  const emit = (next: Phone) => {
    if (!next.phone) onChange?.(asText ? '' : null);
    else onChange?.(asText ? `${next.code}${next.phone}` : next);
  };
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Select
        style={{ width: 100 }}
        value={code}
        options={CODES.map((c) => ({ value: c, label: c }))}
        onChange={(c) => emit({ code: c, phone })}
      />
      <Input id={id} value={phone} onChange={(e) => emit({ code, phone: e.target.value.trim() })} />
    </Space.Compact>
  );
}
