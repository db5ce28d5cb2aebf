import { runPlugin } from '../../lib/plugin/run';
import { plugin } from './plugin';

void runPlugin(plugin);
