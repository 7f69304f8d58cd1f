/** Turning a 400 body into messages on the form. */

export interface FormErrors {
  /** Messages per field of the form, each field's messages joined with '; '. */
  fields: { name: string; errors: string[] }[];
  /** Messages that belong to no field of the form, shown above it. */
  nonField: string[];
}

/** Every message of a value: strings, arrays of them, and nested objects (`{phone: {phone: [...]}}`). */
export function messagesOf(value: unknown): string[] {
  if (value === null || value === undefined || value === '') return [];
  if (Array.isArray(value)) return value.flatMap(messagesOf);
  if (typeof value === 'object') return Object.values(value).flatMap(messagesOf);
  return [String(value)];
}

const NON_FIELD_KEYS = new Set(['non_field_errors', 'detail', 'error', 'msg', 'code']);

/**
 * A field-keyed body goes onto the matching fields; `non_field_errors`, `detail` and keys the form
 * does not show go to the top (prefixed with their label when known). Any other body goes to the top.
 */
export function mapFormErrors(
  body: unknown,
  formFields: readonly string[],
  labelOf: (field: string) => string | undefined = () => undefined,
): FormErrors {
  const out: FormErrors = { fields: [], nonField: [] };
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    out.nonField.push(...messagesOf(body));
    return out;
  }
  const shown = new Set(formFields);
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (key === 'code') continue;
    const messages = messagesOf(value);
    if (!messages.length) continue;
    if (shown.has(key)) out.fields.push({ name: key, errors: [messages.join('; ')] });
    else if (NON_FIELD_KEYS.has(key)) out.nonField.push(...messages);
    else out.nonField.push(`${labelOf(key) ?? key}: ${messages.join('; ')}`);
  }
  return out;
}
