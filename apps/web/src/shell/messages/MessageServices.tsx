import { useSiteMessageSocket } from './useSiteMessageSocket.ts';
import { MessageDrawer } from './MessageDrawer.tsx';

/** The live unread count and the drawer, mounted once with the navbar. */
export function MessageServices() {
  useSiteMessageSocket();
  return <MessageDrawer />;
}
