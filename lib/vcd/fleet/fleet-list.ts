// The VMs check_vm_fleet reads, held for the whole run: up to --max-vms (100,000) of them, so
// each is kept as compactly as the list allows instead of as one object per record: its id's
// 16 bytes, its name, and the numbers of its vApp, status and organisation among the few
// distinct ones a fleet has (about 70 bytes a VM where a record with its strings took 300).
// Records are taken as the query pages come, so the pages and their records are never all held.
import type { DiscoverySelection } from '../inventory/discovery';
import type { VmHygiene } from '../inventory/hygiene-record';
import type { VmRecord } from '../inventory/vm-query';
import { isVmId } from '../api/ids';

/** The ids vm-query.ts makes: `vm-` and a GUID in lower case. */
const ID_WORDS = 4;

/** Each distinct text once, by number. */
class Interned {
  private readonly numbers = new Map<string, number>();
  readonly values: string[] = [];

  of(value: string): number {
    let n = this.numbers.get(value);
    if (n === undefined) {
      n = this.values.length;
      this.values.push(value);
      this.numbers.set(value, n);
    }
    return n;
  }

  /** Each value's rank among the values in JavaScript's string order. */
  ranks(): Uint32Array {
    const order = this.values.map((_, n) => n).sort((a, b) => compareText(this.values[a], this.values[b]));
    const ranks = new Uint32Array(this.values.length);
    order.forEach((n, rank) => (ranks[n] = rank));
    return ranks;
  }
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function grown<T extends Uint32Array>(array: T, needed: number, make: (size: number) => T): T {
  if (needed <= array.length) return array;
  const bigger = make(Math.max(needed, array.length * 2));
  bigger.set(array);
  return bigger;
}

/**
 * The selected VMs of a listing (no templates, --vapp/--include/--exclude applied, one per id:
 * the last listed), in the order selectVms gives them: organisation, vApp, name, id.
 */
export class FleetList {
  /** Records listed, templates and VMs not selected included. */
  records = 0;
  private count = 0;
  private ids = new Uint32Array(ID_WORDS * 1024);
  /** Ids not of the `vm-<guid>` form, whole (none from the query service: vm-query.ts makes every id so). */
  private readonly otherIds = new Map<number, string>();
  private readonly names: string[] = [];
  private vapps = new Uint32Array(1024);
  private statuses = new Uint32Array(1024);
  private orgs = new Uint32Array(1024);
  private readonly vappText = new Interned();
  private readonly statusText = new Interned();
  private readonly orgText = new Interned();
  /** What the records say for the hygiene services, kept only when they are asked for (vm-query.ts reads it only then). */
  private readonly hygiene = new Map<number, VmHygiene>();
  /** Whether the listing said each VM's organisation (it always does: vm-listing.ts names it). */
  private withOrg = true;
  private order: Uint32Array | undefined;

  constructor(private readonly selection: DiscoverySelection) {}

  /** Takes one listed record: kept when it is a VM the selection takes. */
  add(r: VmRecord): void {
    this.records++;
    const sel = this.selection;
    if (r.template) return;
    if (sel.vapp !== undefined && r.vapp !== sel.vapp) return;
    if (sel.include && !sel.include.test(r.name)) return;
    if (sel.exclude && sel.exclude.test(r.name)) return;
    const n = this.count++;
    this.ids = grown(this.ids, ID_WORDS * this.count, (size) => new Uint32Array(size));
    if (isVmId(r.id)) {
      const hex = r.id.slice(3).replace(/-/g, '');
      for (let w = 0; w < ID_WORDS; w++) this.ids[ID_WORDS * n + w] = parseInt(hex.slice(8 * w, 8 * w + 8), 16);
    } else this.otherIds.set(n, r.id);
    this.names.push(r.name);
    this.vapps = grown(this.vapps, this.count, (size) => new Uint32Array(size));
    this.statuses = grown(this.statuses, this.count, (size) => new Uint32Array(size));
    this.orgs = grown(this.orgs, this.count, (size) => new Uint32Array(size));
    this.vapps[n] = this.vappText.of(r.vapp);
    this.statuses[n] = this.statusText.of(r.status);
    this.orgs[n] = this.orgText.of(r.org ?? '');
    if (r.org === undefined) this.withOrg = false;
    if (r.hygiene !== undefined) this.hygiene.set(n, r.hygiene);
  }

  /** The VMs selected, once the listing is over. */
  get length(): number {
    return this.selected().length;
  }

  /** The record of the VM at `index` in the selection's order, made anew (the caller holds it while it needs it). */
  vm(index: number): VmRecord {
    const n = this.selected()[index];
    const record: VmRecord = {
      id: this.idOf(n),
      name: this.names[n],
      vapp: this.vappText.values[this.vapps[n]],
      status: this.statusText.values[this.statuses[n]],
      template: false,
    };
    if (this.withOrg) record.org = this.orgText.values[this.orgs[n]];
    const hygiene = this.hygiene.get(n);
    if (hygiene !== undefined) record.hygiene = hygiene;
    return record;
  }

  private idOf(n: number): string {
    const other = this.otherIds.get(n);
    if (other !== undefined) return other;
    const hex = Array.from(this.ids.subarray(ID_WORDS * n, ID_WORDS * n + ID_WORDS), (w) => w.toString(16).padStart(8, '0')).join('');
    return `vm-${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  /** Whether two kept records have the same id. */
  private sameId(a: number, b: number): boolean {
    if (this.otherIds.has(a) || this.otherIds.has(b)) return this.idOf(a) === this.idOf(b);
    for (let w = 0; w < ID_WORDS; w++) if (this.ids[ID_WORDS * a + w] !== this.ids[ID_WORDS * b + w]) return false;
    return true;
  }

  /** Orders kept records by id (any order that puts equal ids together), then by place in the listing. */
  private byId(a: number, b: number): number {
    if (this.otherIds.has(a) || this.otherIds.has(b)) return compareText(this.idOf(a), this.idOf(b)) || a - b;
    for (let w = 0; w < ID_WORDS; w++) {
      const d = this.ids[ID_WORDS * a + w] - this.ids[ID_WORDS * b + w];
      if (d !== 0) return d;
    }
    return a - b;
  }

  /** The kept records in the selection's order: one per id (the last listed), by organisation, vApp, name, id. */
  private selected(): Uint32Array {
    if (this.order) return this.order;
    const byId = new Uint32Array(this.count).map((_, n) => n).sort((a, b) => this.byId(a, b));
    const last: number[] = [];
    for (let i = 0; i < byId.length; i++) if (i + 1 === byId.length || !this.sameId(byId[i], byId[i + 1])) last.push(byId[i]);
    const [orgRank, vappRank] = [this.orgText.ranks(), this.vappText.ranks()];
    this.order = Uint32Array.from(last).sort(
      (a, b) =>
        orgRank[this.orgs[a]] - orgRank[this.orgs[b]] ||
        vappRank[this.vapps[a]] - vappRank[this.vapps[b]] ||
        compareText(this.names[a], this.names[b]) ||
        compareText(this.idOf(a), this.idOf(b)),
    );
    return this.order;
  }
}
