// Types of scripts/icinga-graphs.mjs, for the tests that import it.
export interface IcingaGraph {
  name: string;
  command: string;
  title: string;
  unit: string;
  series: Array<[label: string, legend: string]>;
}
export const GRAPHS: IcingaGraph[];
export const GRAPHITE: string;
export const GRAFANA: string;
export function graphitePath(label: string): string;
export function graphiteIni(): string;
export function fluxQuery(command: string, label: string): string;
export function grafanaDashboard(): unknown;
