/** The most a provider's answer (token, userinfo, a messenger's API) may hold. */
export const MAX_ANSWER_BYTES = 1 << 20;

/** An answer of at most MAX_ANSWER_BYTES, as JSON or (some providers' token answers) a form. */
export async function readAnswer(res: Response): Promise<Record<string, unknown>> {
  if (Number(res.headers.get('content-length') ?? 0) > MAX_ANSWER_BYTES) throw new Error('answer too large');
  const reader = res.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const part = await reader?.read();
    if (!part || part.done) break;
    size += part.value.length;
    if (size > MAX_ANSWER_BYTES) {
      await reader?.cancel();
      throw new Error('answer too large');
    }
    chunks.push(part.value);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!res.ok) throw new Error(`HTTP ${res.status}: ${text.slice(0, 200)}`);
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    /* a form answer */
  }
  return Object.fromEntries(new URLSearchParams(text));
}
