// check_vm_fleet's entry: the young generation is kept small before the fleet is read (see below).
import { setFlagsFromString } from 'node:v8';
import { runPlugin } from '../../lib/plugin/run';
import { plugin } from './plugin';

/**
 * V8 grows the young generation from its first size (two semi-spaces of 1 MiB) to 16 MiB each
 * under the fleet's steady allocation: 30 MiB of resident memory for objects that live a few
 * milliseconds. Kept at its first size, the fleet measured about 20-30 MiB less at its peak and
 * no more CPU per VM (bench/RESULTS.md, Node.js 18 to 24). V8 reads the factor each time it
 * would grow the space, so setting it now takes effect; NODE_OPTIONS (--min-semi-space-size)
 * still sets the size it stays at.
 */
function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

keepYoungGenerationSmall();
void runPlugin(plugin);
