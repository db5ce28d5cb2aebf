// Reads the PNG images Zabbix's frontend draws (chart2.php: GD, truecolor or a palette of 1 to
// 8 bits, not interlaced) into pixels, so that a test can tell whether a series was drawn: its
// colour in the image.
import { inflateSync } from 'node:zlib';

export interface Png {
  width: number;
  height: number;
  /** The colour at (x, y) as six hex digits, upper case (alpha ignored). */
  rgb(x: number, y: number): string;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The image in `data`; throws when it is not a PNG this reader knows (8-bit RGB or RGBA, a palette or grey of 1 to 8 bits). */
export function readPng(data: Buffer): Png {
  if (!data.subarray(0, 8).equals(SIGNATURE)) throw new Error(`not a PNG: ${data.subarray(0, 60).toString('latin1')}`);
  let width = 0;
  let height = 0;
  let colorType = 0;
  let depth = 8;
  let palette = Buffer.alloc(0);
  const idat: Buffer[] = [];
  for (let at = 8; at < data.length;) {
    const length = data.readUInt32BE(at);
    const type = data.toString('latin1', at + 4, at + 8);
    const body = data.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      depth = body[8];
      colorType = body[9];
      if (body[12] !== 0 || (depth !== 8 && ![0, 3].includes(colorType)))
        throw new Error(`PNG colour type ${colorType}, bit depth ${depth}, interlace ${body[12]}: not read here`);
    } else if (type === 'PLTE') palette = Buffer.from(body);
    else if (type === 'IDAT') idat.push(body);
    at += 12 + length;
  }
  const channels = ({ 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 } as Record<number, number>)[colorType];
  if (!channels) throw new Error(`PNG colour type ${colorType}: not read here`);
  const raw = inflateSync(Buffer.concat(idat));
  // Bytes per line, and the byte distance the filters look back (at least one).
  const stride = Math.ceil((width * channels * depth) / 8);
  const back = Math.max(1, (channels * depth) / 8);
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= back ? pixels[y * stride + i - back] : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + i] : 0;
      const c = i >= back && y > 0 ? pixels[(y - 1) * stride + i - back] : 0;
      const p = a + b - c;
      const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
      const predicted = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][filter];
      pixels[y * stride + i] = (line[i] + predicted) & 0xff;
    }
  }
  const hex = (r: number, g: number, b: number) => ((r << 16) | (g << 8) | b).toString(16).toUpperCase().padStart(6, '0');
  return {
    width,
    height,
    rgb(x, y) {
      if (colorType === 0 || colorType === 3) {
        // One sample of `depth` bits per pixel, the leftmost in the high bits.
        const bit = x * depth;
        const sample = (pixels[y * stride + (bit >> 3)] >> (8 - depth - (bit & 7))) & ((1 << depth) - 1);
        if (colorType === 3) return hex(palette[sample * 3], palette[sample * 3 + 1], palette[sample * 3 + 2]);
        const grey = Math.round((sample * 255) / ((1 << depth) - 1));
        return hex(grey, grey, grey);
      }
      const at = y * stride + x * channels;
      if (colorType === 4) return hex(pixels[at], pixels[at], pixels[at]);
      return hex(pixels[at], pixels[at + 1], pixels[at + 2]);
    },
  };
}

/** How many pixels of each colour the image has, from column `left` on. */
export function colourCounts(png: Png, left = 0): Map<string, number> {
  const counts = new Map<string, number>();
  for (let y = 0; y < png.height; y++)
    for (let x = left; x < png.width; x++) {
      const c = png.rgb(x, y);
      counts.set(c, (counts.get(c) ?? 0) + 1);
    }
  return counts;
}

/**
 * The largest image of a body that holds PNG images one after the other: chart2.php, served as
 * the tests serve the frontend, answers its graph between two images one or two pixels wide.
 */
export function largestPng(body: Buffer): Png {
  const images: Png[] = [];
  for (let start = 0; start < body.length;) {
    if (!body.subarray(start, start + 8).equals(SIGNATURE))
      throw new Error(`not a PNG at byte ${start}: ${body.subarray(start, start + 60).toString('latin1')}`);
    const end = body.indexOf('IEND', start, 'latin1') + 8; // the chunk's type and CRC
    if (end < 8) throw new Error('a PNG without its end');
    images.push(readPng(body.subarray(start, end)));
    start = end;
  }
  if (images.length === 0) throw new Error('no PNG in the body');
  return images.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a));
}
