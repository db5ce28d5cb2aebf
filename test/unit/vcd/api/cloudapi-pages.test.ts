// The CloudAPI's paged lists, walked within bounds whatever the server sends: its own page
// count, an empty page, a list that never ends, a page of too many, no list at all (404).
import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../../../../lib/http/request';
import { cloudApiAllPages } from '../../../../lib/vcd/api/cloudapi-pages';
import type { VcdConnection } from '../../../../lib/vcd/api/connection';

const conn = { base: new URL('https://vcd.example.com'), apiVersion: '37.0', setPhase: () => undefined } as unknown as VcdConnection;
const answer = (status: number, body: unknown): HttpResponse =>
  ({ status, headers: {}, body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)) }) as HttpResponse;
const list = { max: 1000, noun: 'things', narrow: 'narrow it', refused: 'the account may not', take: (v: Record<string, unknown>) => v.n as number };

describe('cloudApiAllPages', () => {
  it("follows the server's page count and asks with the session's version", async () => {
    const asked: string[] = [];
    const get = async (path: string, accept?: () => string) => {
      asked.push(`${path} ${accept?.()}`);
      const page = Number(/page=(\d+)/.exec(path)![1]);
      return answer(200, { pageCount: 3, page, values: [{ n: page }] });
    };
    expect(await cloudApiAllPages(conn, get, '/cloudapi/1.0.0/things?filter=x', list)).toEqual([1, 2, 3]);
    expect(asked[0]).toBe('/cloudapi/1.0.0/things?filter=x&page=1&pageSize=128 application/json;version=37.0');
  });

  it('says absent for a server without the list, and stops at an empty page', async () => {
    expect(await cloudApiAllPages(conn, async () => answer(404, { message: 'No resource' }), '/cloudapi/1.0.0/things', list)).toBe('absent');
    expect(await cloudApiAllPages(conn, async () => answer(200, { pageCount: 99, values: [] }), '/cloudapi/1.0.0/things', list)).toEqual([]);
  });

  it('refuses a list that never ends, too many objects, a 403 and a body that is no list', async () => {
    let pages = 0;
    const endless = async (path: string) => {
      pages++;
      const page = Number(/page=(\d+)/.exec(path)![1]);
      return answer(200, { pageCount: page + 1, values: [{ n: 0 }] });
    };
    await expect(cloudApiAllPages(conn, endless, '/c', { ...list, max: 10_000 })).rejects.toThrow(/returned more than 1000 pages of things, narrow it/);
    expect(pages).toBe(1000);
    const big = async () => answer(200, { pageCount: 1, values: Array.from({ length: 1001 }, () => ({ n: 1 })) });
    await expect(cloudApiAllPages(conn, big, '/c', list)).rejects.toThrow(/listed more than 1000 things/);
    await expect(cloudApiAllPages(conn, async () => answer(403, { message: 'Forbidden' }), '/c', list)).rejects.toThrow(
      /refused to list things .*the account may not/,
    );
    await expect(cloudApiAllPages(conn, async () => answer(200, '<html>'), '/c', list)).rejects.toThrow(/not JSON/);
    await expect(cloudApiAllPages(conn, async () => answer(200, { values: 3 }), '/c', list)).rejects.toThrow(/no "values" list of things/);
    // A million nested arrays never reach JSON.parse.
    const deep = async () => answer(200, `{"values":[${'['.repeat(1_100_000)}`);
    await expect(cloudApiAllPages(conn, deep, '/c', list)).rejects.toThrow(/far more than 1000 things/);
  });
});
