import { useEffect } from 'react';
import { Menu, type MenuProps } from 'antd';

export interface NodeMenuProps {
  x: number;
  y: number;
  items: MenuProps['items'];
  onClick(key: string): void;
  onClose(): void;
}

/** The tree's right-click menu, at the mouse position; closes on any outside click, a wheel scroll or Escape. */
export function NodeMenu({ x, y, items, onClick, onClose }: NodeMenuProps) {
  useEffect(() => {
    const close = () => onClose();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('click', close);
    // A person scrolling closes the menu; a scroll the page does by itself (the virtual tree
    // re-measuring after a change, an element brought into view) must not, or the menu vanishes
    // under the pointer.
    window.addEventListener('wheel', close, { capture: true, passive: true });
    window.addEventListener('resize', close);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('click', close);
      window.removeEventListener('wheel', close, { capture: true });
      window.removeEventListener('resize', close);
      window.removeEventListener('keydown', onKey);
    };
  }, [onClose]);
  return (
    <div
      style={{
        position: 'fixed',
        left: x,
        top: y,
        zIndex: 1050,
        boxShadow: '0 6px 16px rgba(0,0,0,.12)',
        borderRadius: 8,
        background: '#fff',
      }}
      data-testid="node-menu"
      onClick={(e) => e.stopPropagation()}
    >
      <Menu
        selectable={false}
        items={items}
        onClick={({ key }) => {
          onClose();
          onClick(key);
        }}
        style={{ borderRadius: 8, minWidth: 200 }}
      />
    </div>
  );
}
