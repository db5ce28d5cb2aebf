import type { SimModule } from './module';
import { CLUSTER_MODULE } from './cluster/module';
import { VCD_MODULE } from './vcd/module';

/** Every simulated API that cloudchecks-sim serves, in start-up order. */
export const SIM_MODULES: SimModule[] = [CLUSTER_MODULE, VCD_MODULE];
