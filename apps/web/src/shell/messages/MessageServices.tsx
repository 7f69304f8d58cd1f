import { LazyWhen, lazyComponent } from '../../lib/LazyWhen.tsx';
import { useShellStore } from '../shellStore.ts';
import { useSiteMessageSocket } from './useSiteMessageSocket.ts';

const MessageDrawer = lazyComponent(() => import('./MessageDrawer.tsx').then((m) => m.MessageDrawer));

/** The live unread count and the drawer (loaded the first time it opens), mounted once with the navbar. */
export function MessageServices() {
  useSiteMessageSocket();
  const open = useShellStore((s) => s.messagesOpen);
  return (
    <LazyWhen when={open}>
      <MessageDrawer />
    </LazyWhen>
  );
}
