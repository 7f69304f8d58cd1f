import {
  cloneElement,
  lazy,
  startTransition,
  Suspense,
  useState,
  type MouseEvent,
  type FocusEvent,
  type ReactElement,
} from 'react';
import type { DropdownProps } from 'antd';

/** antd's Dropdown (with its menu, trigger and motion code) in its own chunk. */
const Dropdown = lazy(() => import('./antdDropdown.ts').then((m) => ({ default: m.Dropdown })));

interface TriggerProps {
  onClick?: (e: MouseEvent) => void;
  onContextMenu?: (e: MouseEvent) => void;
  onMouseEnter?: (e: MouseEvent) => void;
  onFocus?: (e: FocusEvent) => void;
}

/**
 * antd's `Dropdown` for the always-visible navbar and tags bar, loaded when the pointer or the focus
 * first reaches its trigger (or at the first click, which then opens it once loaded). Until then the
 * trigger is drawn alone, so the dropdown code stays out of the console's first load.
 */
export function LazyDropdown({
  children,
  trigger = ['hover'],
  onOpenChange,
  ...props
}: Omit<DropdownProps, 'children' | 'open'> & { children: ReactElement<TriggerProps> }) {
  const [wanted, setWanted] = useState(false);
  const [open, setOpen] = useState(false);
  const openEvent = trigger.includes('contextMenu') ? 'onContextMenu' : 'onClick';

  // The trigger until the dropdown is there: hovering or focusing starts loading it, clicking (or
  // right-clicking) also asks it to open, including while it is still loading.
  // Loading runs in a transition, so the trigger in the page stays as it is (a click in progress on it
  // still lands) until the dropdown is there.
  const load = () => startTransition(() => setWanted(true));
  const own = children.props;
  const alone = cloneElement(children, {
    onMouseEnter: (e: MouseEvent) => {
      own.onMouseEnter?.(e);
      load();
    },
    onFocus: (e: FocusEvent) => {
      own.onFocus?.(e);
      load();
    },
    [openEvent]: (e: MouseEvent) => {
      own[openEvent]?.(e);
      if (openEvent === 'onContextMenu') e.preventDefault();
      load();
      setOpen(true);
    },
  });
  return (
    <Suspense fallback={alone}>
      {wanted ? (
        <Dropdown
          {...props}
          trigger={trigger}
          open={open}
          onOpenChange={(next, info) => {
            setOpen(next);
            onOpenChange?.(next, info);
          }}
        >
          {children}
        </Dropdown>
      ) : (
        alone
      )}
    </Suspense>
  );
}
