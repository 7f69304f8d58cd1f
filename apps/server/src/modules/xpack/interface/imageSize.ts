/**
 * The type and pixel size of an uploaded image, read from its own bytes (the name and the declared
 * type are the sender's word): PNG (IHDR), GIF (logical screen), JPEG (the first SOF marker) and
 * ICO (the first directory entry). Anything else, SVG included, is not an image here.
 */
export interface ImageInfo {
  type: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/x-icon';
  width: number;
  height: number;
}

export function imageInfo(b: Buffer): ImageInfo | undefined {
  if (b.length >= 24 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return b.toString('latin1', 12, 16) === 'IHDR'
      ? { type: 'image/png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) }
      : undefined;
  if (b.length >= 10 && /^GIF8[79]a$/.test(b.toString('latin1', 0, 6)))
    return { type: 'image/gif', width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  if (b.length >= 22 && b.readUInt16LE(0) === 0 && b.readUInt16LE(2) === 1 && b.readUInt16LE(4) > 0)
    return { type: 'image/x-icon', width: b[6] || 256, height: b[7] || 256 };
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return undefined;
      const marker = b[i + 1]!;
      if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
        i += 2;
        continue;
      }
      const len = b.readUInt16BE(i + 2);
      // SOF0-15 except DHT (c4), JPG (c8) and DAC (cc).
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
        return { type: 'image/jpeg', height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
      if (len < 2) return undefined;
      i += 2 + len;
    }
  }
  return undefined;
}
