/** `12d 03:04:05` / `04:05` left until `dateExpired`. */
export function countdown(dateExpired: string, now: number): string {
  const left = Math.max(0, Math.floor((Date.parse(dateExpired) - now) / 1000));
  const d = Math.floor(left / 86400);
  const hms = [Math.floor((left % 86400) / 3600), Math.floor((left % 3600) / 60), left % 60]
    .map((n) => String(n).padStart(2, '0'))
    .join(':');
  return d > 0 ? `${d}d ${hms}` : hms;
}
