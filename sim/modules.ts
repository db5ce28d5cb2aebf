import type { SimModule } from './module';

/** Every simulated API that cloudchecks-sim serves, in start-up order. */
export const SIM_MODULES: SimModule[] = [];
