// Every vCD plugin's head comes from one place (lib/vcd/frame/vcd-plugin.ts): the password as a
// secret, one sentence on the session cache, the HTTP environment note last.
import { beforeAll, describe, expect, it } from 'vitest';
import PLUGINS from '../../../../plugins/registry.json';
import { HTTP_ENVIRONMENT_NOTE } from '../../../../lib/http/options';
import type { PluginDefinition } from '../../../../lib/plugin/run';
import { VCD_PASSWORD_ENV, VCD_SESSION_NOTE, vcdPlugin } from '../../../../lib/vcd/frame/vcd-plugin';
import { defineOptions } from '../../../../lib/plugin/options';
import { State } from '../../../../lib/plugin/state';

const VCD_PLUGINS = PLUGINS.filter((name) => /^check_(vcd|vm_|vdc|pvdc|edge_)/.test(name));

describe('the vCD plugins (vcdPlugin)', () => {
  const loaded = new Map<string, PluginDefinition>();
  beforeAll(async () => {
    for (const name of VCD_PLUGINS) loaded.set(name, ((await import(`../../../../plugins/${name}/plugin`)) as { plugin: PluginDefinition }).plugin);
  });

  it('are the vCD checks of the registry', () => {
    expect(VCD_PLUGINS).toEqual(
      expect.arrayContaining([
        'check_vcd',
        'check_vm_cpu',
        'check_vm_fleet',
        'check_vdc',
        'check_pvdc',
        'check_vcd_tasks',
        'check_edge_gateways',
        'check_vcd_backends',
      ]),
    );
  });

  it.each(VCD_PLUGINS)('%s: the password is a secret; its notes end with how the session is kept, then the HTTP environment', (name) => {
    const plugin = loaded.get(name)!;
    expect(plugin.secretEnv).toContain(VCD_PASSWORD_ENV);
    const notes = plugin.notes ?? [];
    expect(notes[notes.length - 1]).toBe(HTTP_ENVIRONMENT_NOTE);
    const session = notes[notes.length - 2];
    if (name === 'check_vcd') expect(session).toMatch(/^Every run logs in and out/);
    else expect(session).toBe(VCD_SESSION_NOTE);
    // Said once: no other note speaks of the session cache.
    expect(notes.filter((n) => /Sessions are cached|session cache/i.test(n))).toEqual(name === 'check_vcd' ? [] : [VCD_SESSION_NOTE]);
  });

  it('keeps the secrets a plugin adds, after the password', () => {
    const plugin = vcdPlugin({
      name: 'X',
      command: 'check_x',
      description: '',
      usage: 'check_x',
      examples: [],
      options: defineOptions([]),
      secretEnv: ['OTHER'],
      run: async () => ({ state: State.OK, summary: '' }),
    });
    expect(plugin.secretEnv).toEqual([VCD_PASSWORD_ENV, 'OTHER']);
    expect(plugin.notes).toEqual([VCD_SESSION_NOTE, HTTP_ENVIRONMENT_NOTE]);
  });
});
