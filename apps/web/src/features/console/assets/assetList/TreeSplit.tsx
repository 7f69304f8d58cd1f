import type { ReactNode } from 'react';
import styles from './assetList.module.css';

/** A tree beside a table (the console's tree-table pages: assets, permissions, granted assets). */
export function TreeSplit({ tree, children }: { tree: ReactNode; children: ReactNode }) {
  return (
    <div className={styles.split}>
      <div className={styles.tree}>{tree}</div>
      <div className={styles.table}>{children}</div>
    </div>
  );
}

/** The height a side tree gets in the window. */
export const treeHeight = () => Math.max(320, (typeof window === 'undefined' ? 900 : window.innerHeight) - 250);
