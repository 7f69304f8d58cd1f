/**
 * A tar archive (POSIX ustar) of a few small in-memory files: what the replay download answers.
 * Names are kept under 100 bytes by the caller (session ids).
 */
function header(name: string, size: number, mtime: Date): Buffer {
  const h = Buffer.alloc(512, 0);
  h.write(name.slice(0, 99), 0, 'utf8');
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  h.write(
    `${Math.floor(mtime.getTime() / 1000)
      .toString(8)
      .padStart(11, '0')}\0`,
    136,
  );
  h.write('        ', 148);
  h.write('0', 156);
  h.write('ustar\0', 257);
  h.write('00', 263);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return h;
}

export function tarOf(files: { name: string; data: Buffer }[], mtime = new Date()): Buffer {
  const parts: Buffer[] = [];
  for (const f of files) {
    parts.push(header(f.name, f.data.length, mtime), f.data);
    const pad = (512 - (f.data.length % 512)) % 512;
    if (pad) parts.push(Buffer.alloc(pad, 0));
  }
  parts.push(Buffer.alloc(1024, 0));
  return Buffer.concat(parts);
}
