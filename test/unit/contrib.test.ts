// The configuration we ship for Icinga 2, Nagios and Zabbix must not drift from the plugins:
// every option it passes exists in the built plugin's --help, and every option a plugin has
// is either offered by the Icinga 2 CheckCommand or deliberately left out (listed below).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import PLUGINS from '../../plugins/registry.json';

const REPO = resolve(__dirname, '../..');
const DIST = process.env.CLOUDCHECKS_DIST ? resolve(process.env.CLOUDCHECKS_DIST) : join(REPO, 'dist');

/** Options the Icinga 2 CheckCommands leave out on purpose, and why. */
const NOT_IN_ICINGA: Record<string, string> = {
  '--help': 'not a check',
  '--version': 'not a check',
  '--output': 'Icinga reads the nagios format',
  '--token': 'a secret on the command line: cloudchecks_nodes_token goes through the environment instead',
  '--password': 'a secret on the command line: cloudchecks_vcd_password goes through the environment instead',
  '--discovery': 'Zabbix low-level discovery, not a check',
  '--max-nodes': 'a bound against broken or hostile servers; its default is far above any real cluster',
  '--max-pods': 'a bound against broken or hostile servers; its default is far above any monitoring namespace',
  '--max-operators': 'a bound against broken or hostile servers; its default is far above any cluster',
  '--max-vms': 'a bound against broken or hostile servers; its default is far above any organisation',
  '--icinga2-password': 'a secret on the command line: cloudchecks_icinga_password_file gives it as a file',
  '--nagios-command-file': "check_vm_fleet's submission to Nagios, not Icinga",
  '--zabbix-server': "check_vm_fleet's submission to Zabbix, not Icinga",
  '--zabbix-port': "check_vm_fleet's submission to Zabbix, not Icinga",
  '--zabbix-host': "check_vm_fleet's submission to Zabbix, not Icinga",
  '--zabbix-key': "check_vm_fleet's submission to Zabbix, not Icinga",
  '--compact': 'shapes --output json for Zabbix, which Icinga does not read',
  '--max-alerts': 'a bound against broken or hostile servers; its default is far above any monitoring stack',
  '--discovery-format': 'shapes --discovery output (generated engine configuration), not a check',
};
/** Options of the Cloud Director checks that only shape --discovery output (generated config, not a check). */
const VM_DISCOVERY_ONLY = ['--discovery-format', '--include', '--exclude', '--discovery-file', '--allow-shrink'];

/** The options a plugin's --help lists, long (--x) and short (-x). */
const helpCache = new Map<string, Set<string>>();
function helpOptions(plugin: string): Set<string> {
  let names = helpCache.get(plugin);
  if (names) return names;
  let text: string;
  try {
    text = execFileSync(join(DIST, plugin), ['--help'], { encoding: 'utf8' });
  } catch (e) {
    text = (e as { stdout?: string }).stdout ?? ''; // --help exits 3, per the guidelines
  }
  names = new Set<string>();
  for (const m of text.matchAll(/^ {2}(?:-(\w), | {4})--([\w-]+)/gm)) {
    names.add(`--${m[2]}`);
    if (m[1]) names.add(`-${m[1]}`);
  }
  expect(names.size, `${plugin} --help lists options`).toBeGreaterThan(10);
  helpCache.set(plugin, names);
  return names;
}

/** The text between the brace at `open` and its partner. */
function braceBlock(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return text.slice(open + 1, i);
  }
  throw new Error(`unbalanced braces after offset ${open}`);
}

interface IcingaCommand {
  kind: 'object' | 'template';
  name: string;
  imports: string[];
  plugin?: string;
  /** Argument key -> its block. */
  args: Map<string, string>;
  body: string;
}

function parseIcingaCommands(text: string): Map<string, IcingaCommand> {
  const stripped = text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[{}]/g, ' ')).replace(/^\s*(\/\/|#).*$/gm, '');
  const commands = new Map<string, IcingaCommand>();
  for (const m of stripped.matchAll(/(object|template) CheckCommand "([^"]+)" \{/g)) {
    const body = braceBlock(stripped, m.index! + m[0].length - 1);
    const args = new Map<string, string>();
    for (const a of body.matchAll(/^\s*"(-[^"]+)" = \{/gm)) args.set(a[1], braceBlock(body, a.index! + a[0].length - 1));
    commands.set(m[2], {
      kind: m[1] as 'object' | 'template',
      name: m[2],
      imports: [...body.matchAll(/^\s*import "([^"]+)"/gm)].map((i) => i[1]),
      plugin: /command = \[ PluginDir \+ "\/(check_\w+)" \]/.exec(body)?.[1],
      args,
      body,
    });
  }
  return commands;
}

/** A command's arguments with those of the templates it imports. */
function allArgs(commands: Map<string, IcingaCommand>, name: string): Map<string, string> {
  const c = commands.get(name);
  if (!c) throw new Error(`CheckCommand ${name} imports unknown template`);
  const args = new Map<string, string>();
  for (const i of c.imports) for (const [k, v] of allArgs(commands, i)) args.set(k, v);
  for (const [k, v] of c.args) args.set(k, v);
  return args;
}

describe('contrib/ matches the plugins', () => {
  it('the plugins are built', () => {
    const missing = PLUGINS.filter((p) => !existsSync(join(DIST, p)));
    expect(missing, "run 'make' (node build.mjs dist) first").toEqual([]);
  });

  describe('contrib/icinga2/commands.conf', () => {
    const text = readFileSync(join(REPO, 'contrib/icinga2/commands.conf'), 'utf8');
    const commands = parseIcingaCommands(text);
    const objects = [...commands.values()].filter((c) => c.kind === 'object');

    it('has one CheckCommand per plugin', () => {
      expect(objects.map((c) => c.plugin).sort()).toEqual([...PLUGINS].sort());
    });

    it('docs/icinga2.md names every CheckCommand, every variable the commands pass, and every host variable the contrib files read', () => {
      const doc = readFileSync(join(REPO, 'docs/icinga2.md'), 'utf8');
      const missing = (names: Iterable<string>) => [...new Set(names)].filter((v) => !doc.includes(`\`${v}\``)).sort();
      expect(missing(objects.map((c) => c.name)), 'CheckCommands').toEqual([]);
      expect(missing([...text.matchAll(/\$(cloudchecks_\w+)\$/g)].map((m) => m[1])), 'variables of commands.conf').toEqual([]);
      const contrib = join(REPO, 'contrib/icinga2');
      const read = readdirSync(contrib)
        .filter((f) => f.endsWith('.conf'))
        .flatMap((f) => [...readFileSync(join(contrib, f), 'utf8').matchAll(/\.vars\.(cloudchecks_\w+)/g)].map((m) => m[1]));
      expect(read.length).toBeGreaterThan(20);
      expect(missing(read), 'variables the contrib files read (host.vars.…)').toEqual([]);
    });

    it('docs/scaling.md enables the REST API (icinga2 api setup) before it shows the ApiUser the runner posts as', () => {
      const scaling = readFileSync(join(REPO, 'docs/scaling.md'), 'utf8');
      const setup = scaling.indexOf('`icinga2 api setup`');
      expect(setup).toBeGreaterThan(0);
      expect(setup).toBeLessThan(scaling.indexOf('object ApiUser "cloudchecks-fleet"'));
    });

    it.each(PLUGINS)('%s: every argument exists in --help, and every option is offered or deliberately left out', (plugin) => {
      const command = objects.find((c) => c.plugin === plugin)!;
      const args = allArgs(commands, command.name);
      const help = helpOptions(plugin);
      for (const key of args.keys()) expect(help, `${command.name} passes ${key}`).toContain(key);
      const longs = [...help].filter((o) => o.startsWith('--'));
      const offered = new Set(args.keys());
      const missing = longs.filter(
        (o) =>
          !offered.has(o) &&
          !(o in NOT_IN_ICINGA) &&
          !((plugin.startsWith('check_vm_') || plugin === 'check_vdc' || plugin === 'check_pvdc') && VM_DISCOVERY_ONLY.includes(o)),
      );
      expect(missing, `${command.name} lacks options of ${plugin} --help (add them, or list them in NOT_IN_ICINGA with the reason)`).toEqual([]);
    });

    it('every argument has a description and a cloudchecks_* variable; flags use set_if', () => {
      for (const c of commands.values()) {
        for (const [key, block] of c.args) {
          expect(block, `${c.name} ${key}`).toMatch(/description = "[^"]{10,}"/);
          const macros = [...block.matchAll(/\$([a-z_]+)\$/g)].map((m) => m[1]);
          expect(macros.length, `${c.name} ${key} uses a custom variable`).toBeGreaterThan(0);
          for (const v of macros) expect(v, `${c.name} ${key}`).toMatch(/^cloudchecks_/);
          if (!/\bvalue = /.test(block)) expect(block, `${c.name} ${key} is a flag`).toMatch(/set_if = "\$cloudchecks_\w+\$"/);
        }
      }
    });

    it('passes secrets only as file paths or through the environment', () => {
      for (const c of commands.values()) {
        for (const [key, block] of c.args) {
          expect(key, `${c.name}`).not.toMatch(/^--(token|password)$/);
          // The secret variables themselves only ever reach the environment, never an argument.
          expect(block, `${c.name} ${key}`).not.toMatch(/\$cloudchecks_(nodes_token|vcd_password)\$/);
        }
      }
      expect(text).toMatch(/env\.KUBE_TOKEN = "\$cloudchecks_nodes_token\$"/);
      expect(text).toMatch(/env\.VCD_PASSWORD = "\$cloudchecks_vcd_password\$"/);
    });

    it('example-services.conf sets only variables that commands.conf uses', () => {
      const examples = readFileSync(join(REPO, 'contrib/icinga2/example-services.conf'), 'utf8');
      const used = new Set([...text.matchAll(/\$(cloudchecks_\w+)\$/g)].map((m) => m[1]));
      const set = new Set([...examples.matchAll(/vars\.(cloudchecks_\w+)/g)].map((m) => m[1]));
      set.delete('cloudchecks_vms'); // the example's own list of VMs that the apply rules loop over
      expect(set.size).toBeGreaterThan(5);
      for (const v of set) expect(used, `example-services.conf sets ${v}`).toContain(v);
    });
  });

  describe('contrib/nagios', () => {
    const commandsCfg = readFileSync(join(REPO, 'contrib/nagios/commands.cfg'), 'utf8');
    const commandPlugins = new Map<string, string>();
    for (const m of commandsCfg.matchAll(/command_name\s+(\S+)\s*\n\s*command_line\s+(.+)/g)) {
      const plugin = /\$USER1\$\/(check_\w+)/.exec(m[2])?.[1];
      if (plugin) commandPlugins.set(m[1], plugin);
    }

    it('has commands for every plugin', () => {
      expect([...new Set(commandPlugins.values())].sort()).toEqual([...PLUGINS].sort());
    });

    it('commands.cfg passes only options the plugins have', () => {
      for (const m of commandsCfg.matchAll(/command_line\s+\$USER1\$\/(check_\w+)(.*)/g)) {
        const options = m[2].split(/\s+/).filter((t) => t.startsWith('-'));
        expect(options.length).toBeGreaterThan(0);
        for (const o of options) expect(helpOptions(m[1]), `${m[1]} ${o}`).toContain(o);
      }
    });

    it('a name a tenant chose (--vapp) goes only into a quoted slot, never into a free $ARGn$ that a shell splits', () => {
      for (const f of readdirSync(join(REPO, 'contrib/nagios')).filter((n) => n.endsWith('.cfg'))) {
        const text = readFileSync(join(REPO, 'contrib/nagios', f), 'utf8');
        expect(text, `${f} suggests --vapp NAME in a free argument`).not.toMatch(/--vapp NAME/);
        for (const m of text.matchAll(/command_line\s+(.*--vapp.*)/g)) expect(m[1], f).toMatch(/--vapp '\$ARG\d\$'/);
      }
      expect(commandPlugins.get('cloudchecks_vm_fleet_vapp')).toBe('check_vm_fleet');
    });

    it('example-services.cfg uses defined commands with options the plugins have', () => {
      const examples = readFileSync(join(REPO, 'contrib/nagios/example-services.cfg'), 'utf8');
      const uses = [...examples.matchAll(/check_command\s+(.+)/g)].map((m) => m[1].split('!'));
      expect(uses.length).toBeGreaterThan(3);
      for (const [name, ...args] of uses) {
        const plugin = commandPlugins.get(name);
        expect(plugin, `check_command ${name}`).toBeDefined();
        for (const o of args
          .join(' ')
          .split(/\s+/)
          .filter((t) => /^--?[a-zA-Z]/.test(t)))
          expect(helpOptions(plugin!), `${name}: ${o}`).toContain(o);
      }
    });
  });

  describe('contrib/zabbix', () => {
    const dir = join(REPO, 'contrib/zabbix');
    const files = existsSync(dir) ? readdirSync(dir).filter((f) => /\.(ya?ml|md|conf|sh)$/.test(f)) : [];

    it('has a template and instructions', () => {
      expect(files.some((f) => /\.ya?ml$/.test(f))).toBe(true);
      expect(files).toContain('README.md');
    });

    it('item keys pass only options the plugins have, and ask for JSON or discovery', () => {
      let keys = 0;
      for (const f of files) {
        const text = readFileSync(join(dir, f), 'utf8');
        for (const m of text.matchAll(/\b(check_(?:nodes|vm_cpu|vm_disk|vm_mem|vm_fleet|vdc))\[([^\]\n]*)\]/g)) {
          keys++;
          const params = [...m[2].matchAll(/"((?:[^"\\]|\\.)*)"|([^,]+)/g)].map((p) => (p[1] ?? p[2]).trim());
          for (const o of params.filter((p) => /^--?[a-zA-Z]/.test(p))) expect(helpOptions(m[1]), `${f}: ${m[1]} ${o}`).toContain(o);
          expect(params.includes('--discovery') || params.includes('--output'), `${f}: ${m[0]}`).toBe(true);
        }
      }
      expect(keys).toBeGreaterThan(3);
    });
  });
});

describe('docs/ use only options the plugins have', () => {
  const docsDir = join(REPO, 'docs');
  const pages = existsSync(docsDir) ? readdirSync(docsDir).filter((f) => f.endsWith('.md')) : [];

  it.each(pages)('%s', (page) => {
    // Shell lines joined across trailing backslashes; each plugin call's options up to the end
    // of its command (a pipe, ;, &&, a redirection or a comment).
    const text = readFileSync(join(docsDir, page), 'utf8').replace(/\\\n\s*/g, ' ');
    for (const m of text.matchAll(/(?:^|[\s/`])(check_(?:nodes|cluster_monitoring|vm_cpu|vm_disk|vm_mem|vdc))((?: +[^\s|;&>#`]+)+)/gm)) {
      const options = m[2]
        .trim()
        .split(/\s+/)
        .filter((t) => /^--?[a-zA-Z]/.test(t))
        .map((t) => t.replace(/=.*$/, ''));
      for (const o of options) expect(helpOptions(m[1]), `${page}: ${m[1]} ${o}`).toContain(o);
    }
  });
});

describe('a rotated vCD password and the session cache', () => {
  it('troubleshooting.md and security.md say the cached session hides it, and that check_vcd (a fresh login every run) tells at once', () => {
    const trouble = readFileSync(join(REPO, 'docs/troubleshooting.md'), 'utf8');
    expect(trouble).toContain('**A rotated password goes unnoticed while a cached session lives.**');
    expect(trouble).toMatch(/`check_vcd` is the check that notices at once: it logs in afresh on every run/);
    expect(readFileSync(join(REPO, 'docs/security.md'), 'utf8')).toMatch(/After rotating a vCD password[^]*`check_vcd` logs in afresh on every run/);
    // What the docs promise is what the plugin says of itself.
    expect(readFileSync(join(REPO, 'plugins/check_vcd/plugin.ts'), 'utf8')).toContain('a fresh login succeeds (never a cached session');
  });
});
