import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../resource/errorMessage.ts';
import { useAction } from '../../../resource/useAction.ts';
import { fileTree, firstFile, isDirIn, parentDir, playbookFiles, type FileNode } from './playbookFiles.ts';

/**
 * A playbook workspace's state over its file API: the tree, the selected entry, the open file and
 * its text (dirty until saved), and the writes. `main.yml` (else the shallowest file) opens first.
 */
export function useWorkspace(id: string) {
  const { t } = useTranslation();
  const act = useAction();
  const [tree, setTree] = useState<FileNode[] | undefined>();
  const [selected, setSelected] = useState<string | undefined>();
  const [open, setOpen] = useState<string | undefined>();
  const [content, setContent] = useState('');
  const [saved, setSaved] = useState('');
  const [error, setError] = useState<string | null>(null);

  const openFile = useCallback(
    async (key: string) => {
      try {
        const file = await playbookFiles.read(id, key);
        setOpen(key);
        setSelected(key);
        setContent(file.content ?? '');
        setSaved(file.content ?? '');
        setError(null);
      } catch (e) {
        setError(errorMessage(e, t));
      }
    },
    [id, t],
  );
  const reload = useCallback(async () => {
    try {
      const next = fileTree(await playbookFiles.tree(id));
      setTree(next);
      return next;
    } catch (e) {
      setTree([]);
      setError(errorMessage(e, t));
      return [];
    }
  }, [id, t]);
  useEffect(() => {
    void reload().then((next) => {
      const first = firstFile(next);
      if (first) void openFile(first);
    });
  }, [reload, openFile]);

  const save = async () => {
    if (!open) return;
    const text = content;
    if (await act.run(() => playbookFiles.save(id, open, text), t('jobs.workspace.saved'))) setSaved(text);
  };

  const remove = async (key: string) => {
    if (!(await act.run(() => playbookFiles.remove(id, key), t('jobs.workspace.deleted')))) return;
    if (open && (open === key || open.startsWith(`${key}/`))) setOpen(undefined);
    setSelected(undefined);
    await reload();
  };

  /** A new file or folder in the selected folder (or beside the selected file); a new file opens. */
  const create = async (kind: 'file' | 'folder', name: string): Promise<boolean> => {
    // A taken name gets a `(1)` from the server: its answer says where the new entry went.
    let created = '';
    const body = { key: parentDir(tree ?? [], selected), name, is_directory: kind === 'folder', content: '' };
    if (!(await act.run(async () => void (created = (await playbookFiles.create(id, body)).id)))) return false;
    const next = await reload();
    if (kind === 'file' && created && !isDirIn(next, created)) void openFile(created);
    if (kind === 'folder' && created) setSelected(created);
    return true;
  };

  /** The selected entry renamed; the open file, when it was the one, opens again under its new name. */
  const rename = async (name: string): Promise<boolean> => {
    const key = selected;
    if (!key) return false;
    if (!(await act.run(() => playbookFiles.rename(id, key, name, isDirIn(tree ?? [], key))))) return false;
    await reload();
    const dir = key.includes('/') ? key.slice(0, key.lastIndexOf('/') + 1) : '';
    setSelected(undefined);
    if (open === key) void openFile(`${dir}${name}`);
    else if (open?.startsWith(`${key}/`)) setOpen(undefined);
    return true;
  };

  return {
    tree,
    selected,
    setSelected,
    open,
    content,
    setContent,
    dirty: open !== undefined && content !== saved,
    error,
    busy: act.busy,
    openFile,
    save,
    remove,
    create,
    rename,
  };
}
