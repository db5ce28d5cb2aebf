// Reads the PNG images Zabbix's frontend draws (chart2.php: GD, truecolor or a palette of 1 to
// 8 bits, not interlaced) into pixels, so that a test can tell whether a series was plotted: its
// colour inside the plot, where the same graph over an empty period has none of it.
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

/** A rectangle of pixels, its edges included. */
export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * Where chart2.php plotted its series in `png`, drawn `width` by `height` pixels of plot: read
 * from the image, not assumed. Zabbix draws the X axis one row below the plot, from 3 pixels left
 * of the Y axis to 5 right of the plot's end, and the Y axis down the plot's left edge, both in
 * the theme's border colour; the Y axis labels are to the left, the time labels and the legend
 * below. Throws when the image has no such axes.
 */
export function plotArea(png: Png, width: number, height: number): Rect {
  const background = png.rgb(0, 0);
  for (let y = height; y < png.height; y++) {
    for (let x = 0; x < png.width;) {
      const colour = png.rgb(x, y);
      let end = x;
      while (end + 1 < png.width && png.rgb(end + 1, y) === colour) end++;
      const run = end - x + 1;
      if (colour !== background && run >= width + 5 && run <= width + 12) {
        const axis = x + 3;
        const rect = { left: axis + 1, top: y - 1 - height, right: axis + width - 1, bottom: y - 1 };
        // The Y axis (a series plotted from the plot's first column may cross it here and there).
        let yAxis = 0;
        for (let row = Math.max(0, rect.top); row <= rect.bottom; row++) if (png.rgb(axis, row) === colour) yAxis++;
        if (rect.top >= 0 && yAxis >= height * 0.9) return rect;
      }
      x = end + 1;
    }
  }
  throw new Error(`no plot of ${width}x${height} pixels with its X and Y axes in the ${png.width}x${png.height} image`);
}

const channels = (hex: string) => [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));

/**
 * How many pixels inside `rect` of `drawn` are in `colour` where `control` (the same graph,
 * the same size, drawn over a period without values) is not: a series' line, or its point, laid
 * over what the empty graph has there (its grid, the work period). Zabbix draws a line's pixels
 * in the colour itself (its first pixel in each column exactly, the next mixed with what is under
 * it) and a lone point in the colour at 15/127 transparency: a pixel counts when it is the colour
 * mixed with the control's pixel beneath by no more than that, within 3 per channel.
 */
export function seriesPixels(drawn: Png, control: Png, rect: Rect, colour: string): number {
  const c = channels(colour);
  let count = 0;
  for (let y = rect.top; y <= rect.bottom; y++)
    for (let x = rect.left; x <= rect.right; x++) {
      const p = drawn.rgb(x, y);
      const under = control.rgb(x, y);
      if (p === under) continue;
      const [pc, uc] = [channels(p), channels(under)];
      for (let step = 0; step <= 16; step++) {
        const a = step / 127;
        if (pc.every((v, k) => Math.abs(v - (c[k] * (1 - a) + uc[k] * a)) <= 3)) {
          count++;
          break;
        }
      }
    }
  return count;
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
