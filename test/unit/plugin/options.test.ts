import { describe, expect, it } from 'vitest';
import { COMMON_OPTIONS, defineOptions, parseOptions, parseTimeout, prefixOptions, renderHelp, type OptionSpec } from '../../../lib/plugin/options';
import { UsageError } from '../../../lib/plugin/errors';
import { State } from '../../../lib/plugin/state';

const specs: OptionSpec[] = [
  ...COMMON_OPTIONS,
  { long: 'url', type: 'string', arg: 'URL', description: 'API URL.' },
  { long: 'min-nodes', type: 'number', arg: 'N', description: 'Minimum.' },
  { long: 'insecure', short: 'k', type: 'boolean', description: 'No TLS checks.' },
  { long: 'no-cache', type: 'boolean', description: 'No cache.' },
  { long: 'include', type: 'list', arg: 'REGEX', description: 'Include.' },
  { long: 'kubeconfig', type: 'string', arg: 'PATH', optionalValue: true, description: 'Kubeconfig.' },
  { long: 'warning', short: 'w', type: 'string', arg: 'RANGE', description: 'Warning.' },
];

describe('parseOptions', () => {
  it('parses long, short, counted, repeated and defaulted options', () => {
    const o = parseOptions(['--url', 'https://x', '-vvv', '-k', '--include', 'a', '--include=b', '--min-nodes', '3', '--no-cache'], specs);
    expect(o).toMatchObject({
      url: 'https://x',
      verbose: 3,
      insecure: true,
      include: ['a', 'b'],
      'min-nodes': 3,
      'no-cache': true,
      timeout: '10',
      output: 'nagios',
    });
  });
  it('lets the command line override --extra-opts values, option by option', () => {
    expect(parseOptions(['--url=b'], specs, ['--url=a', '-w', '5']).url).toBe('b');
    expect(parseOptions(['--url=b'], specs, ['--url=a', '-w', '5']).warning).toBe('5');
    // Two sections setting one option: the last read wins among them.
    expect(parseOptions([], specs, ['--url=a', '--url=c']).url).toBe('c');
    // Lists from the files come first, then the command line's.
    expect(parseOptions(['--include', 'z'], specs, ['--include', 'x', '--include', 'y']).include).toEqual(['x', 'y', 'z']);
  });
  it.each([
    [['--url=a', '--url=b'], /--url given 2 times \("a", "b"\); give it once/],
    [['-w', '50', '-w', '95'], /-w\/--warning given 2 times \("50", "95"\)/],
    [['-w', '50', '--warning=95'], /-w\/--warning given 2 times/],
    [['--min-nodes', '1', '--min-nodes', '2'], /--min-nodes given 2 times/],
  ])('refuses a single-value option repeated on the command line: %j', (argv, message) => {
    expect(() => parseOptions(argv, specs)).toThrow(UsageError);
    expect(() => parseOptions(argv, specs)).toThrow(message);
  });
  it('never echoes the values of a repeated secret option', () => {
    const withSecret: OptionSpec[] = [...specs, { long: 'token', type: 'string', arg: 'TOKEN', secret: true, description: 'Token.' }];
    expect(() => parseOptions(['--token', 'eyJhbGciOi-first', '--token=eyJhbGciOi-second'], withSecret)).toThrow(
      /^--token given 2 times; give it once \(see --help\)$/,
    );
    try {
      parseOptions(['--token', 'eyJhbGciOi-first', '--token=eyJhbGciOi-second'], withSecret);
    } catch (e) {
      expect((e as Error).message).not.toContain('eyJhbGciOi');
    }
  });
  it('keeps list options and counted flags repeatable', () => {
    expect(parseOptions(['--include', 'a', '--include', 'b', '-v', '-v'], specs)).toMatchObject({ include: ['a', 'b'], verbose: 2 });
  });
  it('gives an empty value for an optional-value option given alone', () => {
    expect(parseOptions(['--kubeconfig', '-k'], specs).kubeconfig).toBe('');
    expect(parseOptions(['--kubeconfig', '/x'], specs).kubeconfig).toBe('/x');
  });
  it('accepts ranges that begin with ~ or @', () => {
    expect(parseOptions(['-w', '~:10'], specs).warning).toBe('~:10');
    expect(parseOptions(['-w', '@10:20'], specs).warning).toBe('@10:20');
  });
  it('reads getopt forms: attached values, grouped flags, = forms, -- at the end', () => {
    expect(parseOptions(['-t5', '-kvv', '--url=https://a=b', '-w', '-5:', '--'], specs)).toMatchObject({
      timeout: '5',
      insecure: true,
      verbose: 2,
      url: 'https://a=b',
      warning: '-5:',
    });
    expect(parseOptions(['-w=~:3'], specs).warning).toBe('~:3');
  });
  it('gives no value to an option followed by a long option', () => {
    expect(() => parseOptions(['--url', '--insecure'], specs)).toThrow(/--url needs a value/);
  });
  it.each([
    [['--insecure=yes'], /--insecure takes no value/],
    [['--', 'x'], /unexpected argument "x"/],
    [['-'], /unexpected argument "-"/],
    [['-kz'], /unknown option -z/],
    [['--k'], /unknown option --k/],
  ])('refuses %j', (argv, message) => expect(() => parseOptions(argv, specs)).toThrow(message));
  it.each([
    [['--bogus'], /unknown option --bogus/],
    [['-x'], /unknown option -x/],
    [['stray'], /unexpected argument "stray"/],
    [['--url'], /--url needs a value/],
    [['--min-nodes', 'abc'], /invalid --min-nodes "abc": expected a number/],
    [['--output', 'xml'], /invalid --output "xml": expected one of nagios, json/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseOptions(argv, specs)).toThrow(UsageError);
    expect(() => parseOptions(argv, specs)).toThrow(message);
  });
});

describe('parseTimeout', () => {
  it.each([
    ['10', 10, State.UNKNOWN],
    ['2.5', 2.5, State.UNKNOWN],
    ['30:CRITICAL', 30, State.CRITICAL],
    ['5:ok', 5, State.OK],
    ['5:1', 5, State.WARNING],
  ])('%s', (text, seconds, state) => expect(parseTimeout(text)).toEqual({ seconds, state }));
  it.each(['0', '-1', 'abc', '10:BAD', '10:', '99999'])('rejects %s', (text) => expect(() => parseTimeout(text)).toThrow(/-t\/--timeout/));
});

describe('renderHelp', () => {
  it('lists every option with its default, and the examples', () => {
    const help = renderHelp({
      command: 'check_x',
      version: '1.0.0',
      description: 'd',
      usage: 'check_x [options]',
      specs,
      examples: ['check_x --url https://a'],
    });
    for (const s of specs) expect(help).toContain(`--${s.long}`);
    expect(help).toContain('(default: 10)');
    expect(help).toContain('-k, --insecure');
    expect(help).toContain('check_x --url https://a');
  });
});

describe('renderHelp in 80 columns', () => {
  const text = renderHelp({
    command: 'check_x',
    version: '1.0.0',
    description: 'A description long enough to need wrapping: '.repeat(4),
    usage: 'check_x (--url URL | -H HOST [-p PORT] | --kubeconfig [PATH]) [--token-file PATH] [-w RANGE] [-c RANGE] [options]',
    specs: [
      ...specs,
      { long: 'cert', type: 'string', arg: 'KIND', default: 'valid', choices: ['valid', 'expired', 'wrong-host'], description: 'Certificate kind.' },
    ],
    examples: ['check_x --url https://api.cluster.example.com:6443 --token-file /etc/nagios/cluster.token --ca-file /etc/nagios/cluster-ca.pem'],
    notes: ['A note that is also long enough to be wrapped at the eightieth column of a terminal window.'],
  });
  it('wraps every line, usage and examples included', () => {
    expect(text.split('\n').filter((l) => l.length > 80)).toEqual([]);
    expect(text).toContain(
      'Usage: check_x (--url URL | -H HOST [-p PORT] | --kubeconfig [PATH])\n       [--token-file PATH] [-w RANGE] [-c RANGE] [options]\n',
    );
    expect(text).toContain(
      '  check_x --url https://api.cluster.example.com:6443 \\\n      --token-file /etc/nagios/cluster.token \\\n      --ca-file /etc/nagios/cluster-ca.pem\n',
    );
  });
  it('names the accepted values of an option with choices', () => {
    expect(text).toContain('        Certificate kind. One of: valid, expired, wrong-host. (default: valid)\n');
    // Not twice when the description already names them.
    expect(text).not.toMatch(/--output FORMAT\n.*One of/);
  });
});

describe('prefixOptions', () => {
  it("takes another plugin's options under a prefix, without their short names, typed and parsed as there", () => {
    const own = defineOptions([
      { long: 'metric', short: 'm', type: 'string', arg: 'NAME', default: 'average', choices: ['average', 'maximum'], description: 'Which.' },
      { long: 'per-disk', type: 'boolean', description: 'Each disk.' },
    ]);
    const specs = prefixOptions('cpu', own, (s) => `as --${s.long}: ${s.description}`);
    expect(specs.map((s) => [s.long, 'short' in s, s.description])).toEqual([
      ['cpu-metric', false, 'as --metric: Which.'],
      ['cpu-per-disk', false, 'as --per-disk: Each disk.'],
    ]);
    const parsed = parseOptions(['--cpu-metric', 'maximum', '--cpu-per-disk'], specs);
    const metric: 'average' | 'maximum' = parsed['cpu-metric'];
    expect([metric, parsed['cpu-per-disk']]).toEqual(['maximum', true]);
    expect(() => parseOptions(['--cpu-metric', 'mhz'], specs)).toThrow(/cpu-metric/);
    expect(() => parseOptions(['-m', 'maximum'], specs)).toThrow();
  });
});
