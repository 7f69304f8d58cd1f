import { http } from '../../../../lib/http.ts';
import { nodeItems, type NodeItem, type ZTreeItem } from './treeState.ts';

/** The node tree requests of the JumpServer API. */
const N = '/api/v1/assets/nodes';

export const nodeApi = {
  /** The roots with their children (no key) or the children of one key. */
  tree: (key?: string) => http.get<ZTreeItem[]>(`${N}/children/tree/`, { params: key ? { key } : {} }),
  children: async (key: string): Promise<NodeItem[]> => nodeItems(await nodeApi.tree(key)),
  createChild: (parentId: string, value: string) =>
    http.post<{ id: string; key: string; value: string }>(`${N}/${parentId}/children/`, value ? { value } : {}),
  rename: (id: string, value: string) => http.patch(`${N}/${id}/`, { value }),
  remove: (id: string) => http.delete(`${N}/${id}/`),
  moveNodes: (targetId: string, nodeIds: string[]) => http.put(`${N}/${targetId}/children/add/`, { nodes: nodeIds }),
  assets: (nodeId: string, op: 'add' | 'remove' | 'replace', assetIds: string[]) =>
    http.put(`${N}/${nodeId}/assets/${op}/`, { assets: assetIds }),
};
