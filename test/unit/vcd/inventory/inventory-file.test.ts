// The inventory file of --discovery-file: replaced only by a complete, not much smaller
// inventory, through a temporary name in its directory; untouched when unchanged.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writesInventory } from '../../../../lib/vcd/inventory/inventory-options';
import { countInventoryHosts, writeInventory } from '../../../../lib/vcd/inventory/inventory-file';

const hosts = (n: number) => `// header\n${Array.from({ length: n }, (_, i) => `\nobject Host "vm-${i}" {\n\timport "cloudchecks-vcd-vm"\n}\n`).join('')}`;
const dir = () => mkdtempSync(join(tmpdir(), 'cc-inventory-'));

describe('writeInventory', () => {
  it('creates the file, then replaces it keeping its mode, with no temporary file left', () => {
    const d = dir();
    const f = join(d, 'vms.conf');
    expect(writeInventory(f, 'icinga2', hosts(10), false)).toEqual({ changed: true, previous: undefined });
    chmodSync(f, 0o640);
    expect(writeInventory(f, 'icinga2', hosts(12), false)).toEqual({ changed: true, previous: 10 });
    expect(readFileSync(f, 'utf8')).toBe(hosts(12));
    expect(statSync(f).mode & 0o777).toBe(0o640);
    expect(readdirSync(d)).toEqual(['vms.conf']);
  });

  it('leaves an unchanged file untouched, mtime too', () => {
    const f = join(dir(), 'vms.conf');
    writeFileSync(f, hosts(3));
    utimesSync(f, 1_000_000, 1_000_000);
    expect(writeInventory(f, 'icinga2', hosts(3), false)).toEqual({ changed: false, previous: 3 });
    expect(statSync(f).mtimeMs).toBe(1_000_000_000);
  });

  it('refuses an empty inventory and one below half of the existing file unless --allow-shrink', () => {
    const f = join(dir(), 'vms.conf');
    writeFileSync(f, hosts(2000));
    expect(() => writeInventory(f, 'icinga2', hosts(0), false)).toThrow(/discovery found no VM, so .*vms\.conf is kept with its 2000 hosts: .*--allow-shrink/);
    expect(() => writeInventory(f, 'icinga2', hosts(999), false)).toThrow(
      /discovery found 999 VMs where .*vms\.conf has 2000 hosts \(fewer than half\), so the file is kept/,
    );
    expect(readFileSync(f, 'utf8')).toBe(hosts(2000));
    expect(writeInventory(f, 'icinga2', hosts(1000), false).changed).toBe(true);
    expect(writeInventory(f, 'icinga2', hosts(0), true).changed).toBe(true);
    expect(() => writeInventory(join(dir(), 'new.conf'), 'icinga2', hosts(0), false)).toThrow(/discovery found no VM/);
  });

  it('names what check_vdc and check_pvdc discover, not VMs', () => {
    const f = join(dir(), 'vdcs.conf');
    writeFileSync(f, hosts(10));
    expect(() => writeInventory(f, 'icinga2', hosts(0), false, 'VDC')).toThrow(/discovery found no VDC, so .*vdcs\.conf is kept with its 10 hosts/);
    expect(() => writeInventory(f, 'icinga2', hosts(4), false, 'provider VDC')).toThrow(/discovery found 4 provider VDCs where .*vdcs\.conf has 10 hosts/);
  });

  it('a directory it cannot write: one line naming the path, the file kept', () => {
    const d = dir();
    const f = join(d, 'vms.conf');
    writeFileSync(f, hosts(5));
    chmodSync(d, 0o500);
    try {
      if (process.getuid?.() === 0) return; // root writes anyway
      expect(() => writeInventory(f, 'icinga2', hosts(6), false)).toThrow(
        /cannot write --discovery-file .*vms\.conf: permission denied .*; the existing file is kept/,
      );
      expect(readFileSync(f, 'utf8')).toBe(hosts(5));
    } finally {
      chmodSync(d, 0o700);
    }
  });

  it('counts the hosts of each format', () => {
    expect(countInventoryHosts('icinga2', hosts(4))).toBe(4);
    expect(countInventoryHosts('nagios', '# x\n\ndefine host {\n}\n\ndefine host {\n}\n')).toBe(2);
    expect(countInventoryHosts('zabbix', '[{"a":1},{"a":2}]\n')).toBe(2);
    expect(countInventoryHosts('zabbix', 'VM_CPU UNKNOWN - x')).toBeUndefined();
  });
});

describe('writesInventory: failures go to stderr', () => {
  it.each([
    [['--discovery', '--discovery-format', 'icinga2'], true],
    [['--discovery', '--discovery-format=nagios'], true],
    [['--discovery', '--discovery-file', 'x.json'], true],
    [['--discovery', '--discovery-file=x.json'], true],
    [['--discovery'], false],
    [['--discovery', '--discovery-format', 'zabbix'], false],
    [['--vm', 'x', '--discovery-format', 'icinga2'], false],
  ])('%j → %s', (argv, expected) => expect(writesInventory(argv)).toBe(expected));
});
