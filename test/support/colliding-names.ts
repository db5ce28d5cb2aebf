// Names that sanitise alike (case, spaces, `_` runs, hyphens, quotes, other scripts, fixed
// words of labels and a hashed part's look), so that generated tenant names collide often.
import fc from 'fast-check';

export const collidingName = fc
  .array(fc.constantFrom('x', 'X', 'storage', 'cpu', 'vms', 'memory', 'pct', '_', ' ', '-', '__', 'h0badcafe', 'é', "'", '|', '=', ''), { maxLength: 6 })
  .map((pieces) => pieces.join(''));
