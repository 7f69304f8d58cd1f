import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { requestPerms } from '../../../http/permissions.ts';
import { catalogue, tr } from '../../../platform/i18n/catalogue.ts';
import type toolMessages from '../../../platform/i18n/locales/en/settingsTools.json';
import { planTool, ToolParamError, type ToolPlan } from './toolParams.ts';
import { runTool } from './toolRunner.ts';

/**
 * WebSocket `/ws/setting/tools/` (Settings › Tools): a system administrator (the original lets
 * only them in) sends `{"tool_type": "Ping|Telnet|Nmap|Tcpdump|Traceroute", ...params}`; the
 * server answers `{"msg": "<line>\r\n"}` per line of the program's output, then closes. A bad
 * parameter is one message in the caller's language and a close, nothing run. One run per socket;
 * closing the socket ends the program.
 */
export const TOOLS_SOCKET_PATH = '/ws/setting/tools/';
const M = catalogue<typeof toolMessages>('settingsTools');

export function registerToolsSocket(app: FastifyInstance): void {
  const open = new Set<WebSocket>();
  app.addHook('preClose', async () => {
    for (const s of open) s.terminate();
    open.clear();
  });
  app.get(TOOLS_SOCKET_PATH, { websocket: true, config: { public: true } }, (socket, req) => {
    const send = (text: string) =>
      socket.readyState === socket.OPEN && socket.send(JSON.stringify({ msg: `${text}\r\n` }));
    const allowed = req.user ? requestPerms(req).then((p) => p.isSuperuser) : Promise.resolve(false);
    open.add(socket);
    let stop: (() => void) | undefined;
    const refuse = () => {
      send(tr(req.lang, M.tool_denied));
      socket.close(4003, 'forbidden');
    };
    void allowed.then((ok) => ok || refuse());
    socket.on('close', () => {
      stop?.();
      open.delete(socket);
    });
    socket.once('message', (raw) => {
      void (async () => {
        if (!(await allowed)) return;
        let plan: ToolPlan;
        let tool: unknown;
        try {
          const body = JSON.parse(String(raw)) as unknown;
          if (!body || typeof body !== 'object' || Array.isArray(body)) throw new SyntaxError('not an object');
          tool = (body as Record<string, unknown>).tool_type ?? 'Ping';
          plan = planTool(tool, body as Record<string, unknown>);
        } catch (e) {
          if (e instanceof ToolParamError)
            send(
              e.field === 'tool_type'
                ? tr(req.lang, M.tool_unknown)
                : tr(req.lang, M[e.key], { field: e.field, ...e.params }),
            );
          else send(tr(req.lang, M.tool_bad_json));
          return socket.close(1000);
        }
        app.log.info({ tool, user: req.user?.username }, 'system tool run');
        const run = runTool(plan, send);
        stop = run.stop;
        await run.done;
        socket.close(1000);
      })().catch(() => socket.close(1011));
    });
  });
}
