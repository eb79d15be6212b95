/**
 * What can be said about an image without a vision model: its type and size,
 * read from the bytes' own header. The offline engine reads data: URLs only
 * (it fetches nothing); whoever fetched an http(s) image can pass its bytes to
 * describeImageBytes.
 */

export interface ImageInfo {
  /** sniffed from the magic bytes, else the declared type, else null */
  type: string | null;
  bytes: number;
  width: number | null;
  height: number | null;
}

const MAX_DATA_URL_BYTES = 20 * 1024 * 1024;

/** The bytes of a data: URL, or null when the URL is not one (or is too large to decode). */
export function decodeDataUrl(url: string): { declaredType: string | null; bytes: Buffer } | null {
  const match = /^data:([^;,]*)((?:;[^;,]*)*?),/i.exec(url);
  if (!match) return null;
  const payload = url.slice(match[0].length);
  if (payload.length > (MAX_DATA_URL_BYTES * 4) / 3 + 4) return null;
  const base64 = /;base64$/i.test(match[2]);
  let bytes: Buffer;
  try {
    bytes = base64 ? Buffer.from(payload, 'base64') : Buffer.from(decodeURIComponent(payload), 'utf8');
  } catch {
    return null; // malformed percent-encoding
  }
  return { declaredType: match[1] === '' ? null : match[1].toLowerCase(), bytes };
}

export function describeImageBytes(bytes: Buffer, declaredType: string | null = null): ImageInfo {
  const sniffed = sniff(bytes);
  return { type: sniffed?.type ?? declaredType, bytes: bytes.length, width: sniffed?.width ?? null, height: sniffed?.height ?? null };
}

/** One line for people: "image/png, 1,234 bytes, 640×480". */
export function formatImageInfo(info: ImageInfo): string {
  const parts = [info.type ?? 'unknown type', `${info.bytes.toLocaleString('en-US')} bytes`];
  if (info.width !== null && info.height !== null) parts.push(`${info.width}×${info.height}`);
  return parts.join(', ');
}

interface Sniffed {
  type: string;
  width: number | null;
  height: number | null;
}

function sniff(b: Buffer): Sniffed | null {
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.toString('ascii', 12, 16) === 'IHDR') {
    return { type: 'image/png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  if (b.length >= 10 && /^GIF8[79]a$/.test(b.toString('ascii', 0, 6))) {
    return { type: 'image/gif', width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  }
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return { type: 'image/jpeg', ...jpegSize(b) };
  if (b.length >= 12 && b.toString('ascii', 0, 4) === 'RIFF' && b.toString('ascii', 8, 12) === 'WEBP') {
    return { type: 'image/webp', width: null, height: null };
  }
  return null;
}

/** Width and height from the first start-of-frame marker (SOF0..SOF15 but DHT, JPG, DAC). */
function jpegSize(b: Buffer): { width: number | null; height: number | null } {
  let offset = 2;
  while (offset + 9 < b.length) {
    if (b[offset] !== 0xff) break;
    const marker = b[offset + 1];
    const length = b.readUInt16BE(offset + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: b.readUInt16BE(offset + 5), width: b.readUInt16BE(offset + 7) };
    }
    offset += 2 + length;
  }
  return { width: null, height: null };
}
