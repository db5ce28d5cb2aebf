import { VCD_MODULE } from '../../sim/vcd/module';
import { registerMatrix } from './run-matrix';

registerMatrix('vm', VCD_MODULE);
