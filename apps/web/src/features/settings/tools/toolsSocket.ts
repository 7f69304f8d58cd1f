/**
 * The system tools' WebSocket (`/ws/setting/tools/`, contract §4.18): send `{tool_type, ...params}`,
 * receive `{msg}` lines (each ending `\r\n`) until the server closes.
 */
export const TOOLS_SOCKET_PATH = '/ws/setting/tools/';
export const TOOLS = ['Ping', 'Telnet', 'Nmap', 'Tcpdump', 'Traceroute'] as const;
export type Tool = (typeof TOOLS)[number];

/** Each tool's parameters, in the order of the form (names are the contract's). */
export const TOOL_FIELDS: Record<Tool, readonly string[]> = {
  Ping: ['dest_ips', 'count', 'timeout', 'psize'],
  Telnet: ['dest_ips', 'dest_port', 'timeout'],
  Nmap: ['dest_ips', 'dest_ports', 'timeout'],
  Tcpdump: ['interfaces', 'src_ips', 'src_ports', 'dest_ips', 'dest_ports', 'timeout', 'count'],
  Traceroute: ['dest_ips', 'timeout'],
};

export function runTool(
  body: Record<string, unknown>,
  onLine: (text: string) => void,
  onEnd: () => void,
  loc: Pick<Location, 'protocol' | 'host'> = window.location,
): () => void {
  const ws = new WebSocket(`${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}${TOOLS_SOCKET_PATH}`);
  ws.onopen = () => ws.send(JSON.stringify(body));
  ws.onmessage = (ev: MessageEvent) => {
    try {
      onLine(String((JSON.parse(String(ev.data)) as { msg?: string }).msg ?? ''));
    } catch {
      // not a frame of this socket
    }
  };
  ws.onclose = () => onEnd();
  return () => ws.close();
}
