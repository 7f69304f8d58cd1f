/** A JSON form value as the form holds it (text from the metadata, or the object an editor set). */
export function parseJsonValue<T>(value: unknown): T | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') return value as T;
  try {
    return JSON.parse(value) as T;
  } catch {
    return undefined;
  }
}
