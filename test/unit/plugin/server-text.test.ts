import { describe, expect, it } from 'vitest';
import { runRedactor } from '../../../lib/plugin/redact';
import { boundedExcerpt, elideMiddle } from '../../../lib/plugin/server-text';
import { cpuNow } from '../../support/cpu-time';

describe('boundedExcerpt', () => {
  it('keeps a short one-line message as it is', () => {
    expect(boundedExcerpt('The requested operation could not be executed since VM "web-01" is not running.')).toBe(
      'The requested operation could not be executed since VM "web-01" is not running.',
    );
  });

  it('folds every control and line-separator character into a space', () => {
    expect(boundedExcerpt('a\u0000b\u000bc\u000cd\u0085e\u2028f\u2029g\r\n\th\u001b[31mi')).toBe('a b c d e f g h [31mi');
  });

  it('cuts a flood to the bound and says how much was left out, in time independent of its size', () => {
    // A flat string, as a body read from a socket is (a concatenated one would time V8 flattening it).
    const flood = Buffer.concat([Buffer.from('boom '), Buffer.alloc(30_000_000, 'x')]).toString('latin1');
    const started = cpuNow();
    const out = boundedExcerpt(flood, 100);
    expect(cpuNow() - started).toBeLessThan(200);
    expect(out).toMatch(/^boom x+… \(\d+ more characters\)$/);
    expect(out.length).toBeLessThan(130);
    expect(Number(/\((\d+) more/.exec(out)![1])).toBe(flood.length - 100);
  });

  it('redacts, then cuts: a secret echoed after ~1,200 blanks is replaced whole, not cut to a printable prefix', () => {
    const token = 'sEcReT-excerpt-token-' + 'Z'.repeat(18); // 39 characters
    runRedactor.add(token);
    for (const blanks of [1150, 1190, 1198, 1200, 1202, 1210, 1239]) {
      const out = boundedExcerpt(`Bad credentials:${' '.repeat(blanks)}${token} (tail)`);
      expect(out, String(blanks)).not.toMatch(/sEcReT|ZZZ/);
    }
    expect(boundedExcerpt(`a${' '.repeat(1190)}${token} b`)).toMatch(/^a <redacted>… \(\d+ more characters\)$/);
  });

  it('never ends in half of the mark', () => {
    runRedactor.add('sEcReT-mark-token-1234');
    expect(boundedExcerpt(`${'x'.repeat(95)} sEcReT-mark-token-1234 ${'y'.repeat(50)}`, 100)).toMatch(/^x{95}… \(\d+ more characters\)$/);
  });
});

describe('elideMiddle', () => {
  const CNI =
    'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: No CNI configuration file in /etc/kubernetes/cni/net.d/. Has your network provider started?';
  it('keeps both ends, cut at words, within the room', () => {
    const short = elideMiddle(CNI, 120);
    expect(short).toBe('container runtime network not … file in /etc/kubernetes/cni/net.d/. Has your network provider started?');
    expect(short.length).toBeLessThanOrEqual(120);
    for (const room of [40, 60, 80, 100, 150, 200]) expect(elideMiddle(CNI, room).length).toBeLessThanOrEqual(room);
  });
  it('leaves text that fits as it is', () => expect(elideMiddle('kubelet has disk pressure', 60)).toBe('kubelet has disk pressure'));
});
