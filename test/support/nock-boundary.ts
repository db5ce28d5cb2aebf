// The HTTP boundary of the client unit tests: nock answers every request, nothing reaches
// the network, and a test fails when a request it mocked was never made.
import nock from 'nock';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { CheckError } from '../../lib/plugin/errors';

/** Registers the file's hooks: no real connections, and every mocked request made by each test. */
export function useNockBoundary(): void {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    expect(pending, 'every mocked request was made').toEqual([]);
  });
  afterAll(() => nock.enableNetConnect());
}

/** The message of the CheckError that `p` rejects with, checked not to contain `secret`. */
export async function checkErrorMessage(p: Promise<unknown>, secret: string): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(CheckError);
    expect((e as Error).message).not.toContain(secret);
    return (e as Error).message;
  }
  throw new Error('expected a CheckError');
}
