// check_vcd: the Cloud Director service itself, the parent of every other vCD check. Its
// versions list, a fresh login (never a cached session), one authenticated request and, for
// a System account, the cells. Unlike the other checks, vCD unreachable, breaking the
// connection mid-answer, silent within -t or refusing the login is CRITICAL: this is the
// service that pages.
import type { PluginDefinition } from '../../lib/plugin/run';
import { State } from '../../lib/plugin/state';
import { principal } from '../../lib/vcd/api/login';
import { openVcdSession } from '../../lib/vcd/api/session-request';
import { sessionConfigFrom } from '../../lib/vcd/frame/session-options';
import { vcdPlugin } from '../../lib/vcd/frame/vcd-plugin';
import { probeService } from '../../lib/vcd/service/service-probe';
import { judgeService } from '../../lib/vcd/service/service-report';
import { configureService } from './config';
import { SERVICE_OPTIONS } from './options';

export const plugin: PluginDefinition<typeof SERVICE_OPTIONS> = vcdPlugin({
  name: 'VCD',
  command: 'check_vcd',
  description:
    'Checks that the VMware Cloud Director service works: /api/versions answers, a fresh login succeeds (never a cached session, then logged out), and the current session can be read; with a System account, the cells (one not active, in maintenance or quiesced is WARNING, named; none serving is CRITICAL). vCD unreachable, the connection broken mid-answer, no answer within -t, or the login refused are CRITICAL: the other vCD services depend on this one.',
  usage: 'check_vcd -u URL -U USER -o ORG --password-file PATH [-w SECONDS] [-c SECONDS] [options]',
  options: SERVICE_OPTIONS,
  timeoutState: State.CRITICAL,
  failsWithVcd: true,
  examples: [
    'check_vcd -u https://vcd.example.com -U monitor -o acme --password-file /etc/nagios/vcd.pw',
    'check_vcd -u https://vcd.example.com -U provider-monitor -o System --password-file PW -w 3 -c 8',
    'check_vcd -u https://vcd.example.com -U monitor -o acme --password-file PW -t 20:UNKNOWN',
  ],
  notes: [
    'States: CRITICAL when vCD cannot be reached (DNS, connection, TLS), breaks the connection before an answer is complete (reset, hung up or cut mid-answer at any step, the cells included: "vCD at URL is not answering: CAUSE", in that same run), answers with an error, does not answer within -t (default state CRITICAL here; -t SECONDS:STATE changes it, for a silent vCD only), or refuses the login; WARNING when the slowest answer passes -w or a cell does not serve; UNKNOWN for what the options got wrong (a missing option, an unreadable password file, an --api-version the server refuses) and for cells a System account could not read from an answer (an error status, or not the cells list).',
    'Any account may run it (tenant or System). Cells: System only (GET /cloudapi/1.0.0/cells, or the cell query on vCD without CloudAPI); a tenant account is OK without them, and the output says so.',
    'Perfdata: versions_time, login_time, query_time (s, with -w/-c); cells and cells_serving with a System account.',
    'Shipped as the parent of every other vCD service (contrib: Nagios servicedependency; Icinga 2 through vcd-reachable, its result less a refusal of its own login; Zabbix through the vCD host group the organisation templates read), so that an outage pages once.',
  ],
  sessionNote:
    'Every run logs in and out (vCD counts the session for a moment), whatever --cache-dir, --no-cache and --cache-unusable-state say: they are accepted so that one --extra-opts section serves every vCD check. The other vCD checks keep their sessions in the cache.',
  async run(options, context) {
    const config = configureService(options);
    // Never a cached session: this check proves the password works, and logs out after.
    const session = openVcdSession({ ...sessionConfigFrom(config.base, options, context, [config.slip]), cache: false }, context);
    const reading = await probeService({
      conn: session.conn,
      creds: session.creds,
      provider: session.scope.provider,
      forcedVersion: session.forcedVersion,
      deadline: context.deadline,
    });
    return judgeService(reading, config.times, principal(session.creds));
  },
});
