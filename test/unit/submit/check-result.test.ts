import { describe, expect, it } from 'vitest';
import { splitPluginText } from '../../../lib/submit/check-result';

describe('splitPluginText', () => {
  it('splits the status line at its first |, perfdata at blanks outside quoted labels, and keeps the long output', () => {
    expect(splitPluginText("VM_DISK OK - 40% used | disk_used=4B;;;0;10 'disk read'=1;;;0  disk_used_pct=40%\nsda: 40%\nsdb: 41%\n")).toEqual({
      output: 'VM_DISK OK - 40% used',
      longOutput: ['sda: 40%', 'sdb: 41%'],
      perfdata: ['disk_used=4B;;;0;10', "'disk read'=1;;;0", 'disk_used_pct=40%'],
    });
  });

  it('takes a line without perfdata as output only', () => {
    expect(splitPluginText('VM_MEM UNKNOWN - VM is powered off')).toEqual({ output: 'VM_MEM UNKNOWN - VM is powered off', longOutput: [], perfdata: [] });
  });
});
