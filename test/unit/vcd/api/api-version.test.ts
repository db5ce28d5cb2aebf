// /api/versions is read before any login, from a server not yet trusted: its reader must be
// linear in the answer, whatever markup it holds.
import { describe, expect, it } from 'vitest';
import { parseSupportedVersions } from '../../../../lib/vcd/api/api-version';

const info = (version: string, inner = '') =>
  `<VersionInfo deprecated="false"><Version>${version}</Version>${inner}<LoginUrl>https://vcd.example.com/api/sessions</LoginUrl></VersionInfo>`;
const versions = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<SupportedVersions xmlns="http://www.vmware.com/vcloud/versions">${body}</SupportedVersions>`;

describe('parseSupportedVersions', () => {
  it('reads Version texts from the tree: comments, CDATA and entities are XML, not text to match', () => {
    const text = versions(`<!-- <Version>99.0</Version> -->${info('37.0')}${info('<![CDATA[38.0]]>')}${info(' 36.0 ', '<!-- <Version>1.0</Version> -->')}`);
    expect(parseSupportedVersions(text)).toEqual([
      { version: '37.0', deprecated: false },
      { version: '38.0', deprecated: false },
      { version: '36.0', deprecated: false },
    ]);
  });

  it('a 480 KB answer full of "<!--" is read in one pass (it once took 30 s)', () => {
    const flood = '<!--'.repeat(120_000);
    const cases: [string, unknown][] = [
      [`<?pi ${flood}?>${versions(info('37.0'))}`, [{ version: '37.0', deprecated: false }]],
      [
        versions(info('37.0', `<MediaType><![CDATA[${flood}]]></MediaType>`)),
        { error: expect.stringMatching(/more than 4096 characters of text in <MediaType>/) },
      ],
    ];
    for (const [text, expected] of cases) {
      const started = performance.now();
      const offered = parseSupportedVersions(text);
      expect(performance.now() - started).toBeLessThan(500);
      expect(offered).toEqual(expected);
    }
  });

  it('values longer than any versions document holds are refused, not kept', () => {
    expect(parseSupportedVersions(versions(info('3'.repeat(5000))))).toEqual({
      error: expect.stringMatching(/^not XML \(more than 4096 characters of text in <Version>/),
    });
    expect(parseSupportedVersions(versions(`<VersionInfo deprecated="${'x'.repeat(5000)}"><Version>37.0</Version></VersionInfo>`))).toEqual({
      error: expect.stringMatching(/attribute deprecated of <VersionInfo> is 5000 characters long, more than 4096/),
    });
  });
});
