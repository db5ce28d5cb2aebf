// A plugin used only by the runtime's tests: it exercises the timeout guard, errors,
// options and output without any API behind it.
import { CheckError } from '../../lib/plugin/errors';
import { runPlugin } from '../../lib/plugin/run';
import { State } from '../../lib/plugin/state';

void runPlugin({
  name: 'TEST',
  command: 'check_test',
  description: 'Runtime test plugin.',
  usage: 'check_test --mode MODE',
  options: [
    {
      long: 'mode',
      type: 'string',
      arg: 'MODE',
      default: 'ok',
      choices: ['ok', 'hang', 'busy', 'late', 'throw', 'crash', 'reject', 'warn'],
      description: 'What the probe does.',
    },
    { long: 'label', type: 'list', arg: 'TEXT', description: 'Echoed back in the summary.' },
    { long: 'secret', type: 'string', arg: 'TEXT', secret: true, description: 'A secret that must never be printed.' },
  ],
  examples: ['check_test --mode hang -t 1'],
  async run(options, context) {
    context.log(2, `mode=${options.mode}`);
    context.log(3, `trace: secret is ${options.secret}`);
    switch (options.mode) {
      case 'hang':
        context.setPhase('waiting forever');
        return new Promise(() => setInterval(() => undefined, 1000));
      case 'busy':
        context.setPhase('spinning');
        // Yields to the event loop between slices, like a parser working through pages.
        for (;;) await new Promise((r) => setImmediate(r));
      case 'late': {
        context.setPhase('parsing without a pause');
        // Holds the thread past the deadline (the timer cannot fire), then has a result.
        while (Date.now() < context.deadline + 300);
        return { state: State.OK, summary: 'too late' };
      }
      case 'throw':
        throw new CheckError(`the probe failed (secret ${options.secret})`);
      case 'crash':
        throw new TypeError('boom');
      case 'warn':
        process.emitWarning('something is deprecated', 'DeprecationWarning');
        return { state: State.OK, summary: 'warned' };
      case 'reject':
        throw new CheckError('powered off', { state: State.CRITICAL });
      default:
        return {
          state: State.OK,
          summary: `labels ${options.label.join(',')} secret ${options.secret}`,
          metrics: [{ label: 'value', value: 1.5, uom: 's' }],
          items: [{ name: 'a', state: State.OK, text: 'item a' }],
        };
    }
  },
});
