// A body taken piece by piece (BodyStream) is counted for the young collector as a body read
// whole is: a large page that makes few objects of its own (a hostile server's padding) does not
// leave its chunks waiting for V8 to collect them.
import nock from 'nock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useNockBoundary } from '../../support/nock-boundary';

const counted = vi.hoisted(() => ({ bytes: 0, last: 0 }));
vi.mock('../../../lib/http/young-collector', () => ({
  bodyBytesRead: (bytes: number, total: number) => {
    counted.bytes += bytes;
    counted.last = total;
    return false;
  },
}));

const { httpRequest } = await import('../../../lib/http/request');

const HOST = 'https://vcd.example.com';
useNockBoundary();
beforeEach(() => {
  counted.bytes = 0;
  counted.last = 0;
});

describe('httpRequest with a stream', () => {
  it('counts every chunk of a streamed body, as of a body read whole', async () => {
    const body = ' '.repeat(3 * 1024 * 1024);
    nock(HOST).get('/page').reply(200, body);
    let seen = 0;
    const res = await httpRequest({ url: new URL(`${HOST}/page`), stream: () => (chunk) => void (seen += chunk.length) });
    expect(res.body.length).toBe(0);
    expect(seen).toBe(body.length);
    expect([counted.bytes, counted.last]).toEqual([body.length, body.length]);
  });

  it('a body kept whole (an error document) is counted the same', async () => {
    nock(HOST).get('/page').reply(500, 'x'.repeat(4096));
    const res = await httpRequest({ url: new URL(`${HOST}/page`), stream: (status) => (status === 200 ? () => undefined : undefined) });
    expect(res.body.length).toBe(4096);
    expect(counted.bytes).toBe(4096);
  });

  it('stops counting at a chunk the stream refuses', async () => {
    nock(HOST)
      .get('/page')
      .reply(200, 'y'.repeat(64 * 1024));
    const refused = httpRequest({
      url: new URL(`${HOST}/page`),
      stream: () => () => {
        throw new Error('not XML');
      },
    });
    await expect(refused).rejects.toThrow('not XML');
    expect(counted.bytes).toBe(0);
  });
});
