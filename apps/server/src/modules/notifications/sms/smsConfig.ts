/**
 * What an SMS backend reads: a setting by name (its stored value or default) and a sealed secret.
 * The settings API's categories `sms`, `alibaba`, `tencent`, `huawei`, `cmpp2`, `custom` declare
 * them (packages/contract/src/settingCategories.ts); a test passes the form's unsaved values over
 * the stored ones.
 */
export interface SmsSettings {
  value(name: string): Promise<unknown>;
  secret(name: string): Promise<string>;
}

export interface SmsMessage {
  phone: string;
  /** The verification code: every backend sends codes by a template that holds it. */
  code: string;
}

export interface SmsBackend {
  name: 'alibaba' | 'tencent' | 'huawei' | 'cmpp2' | 'custom';
  send(s: SmsSettings, m: SmsMessage): Promise<void>;
}

export const str = async (s: SmsSettings, name: string) => String((await s.value(name)) ?? '');

/** A JSON answer of an HTTP call, or its status as the error. */
export async function jsonOf(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text();
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`HTTP ${res.status}`);
  }
}

export const timeout = () => AbortSignal.timeout(10_000);
