import { CLUSTER_MODULE } from '../../sim/cluster/module';
import { registerMatrix } from './run-matrix';

registerMatrix('nodes', CLUSTER_MODULE);
