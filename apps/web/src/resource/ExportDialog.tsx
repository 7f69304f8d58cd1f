import { useState } from 'react';
import { App, Form, Modal, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { http } from '../lib/http.ts';
import { errorMessage } from './errorMessage.ts';
import { download, exportHref, exportScopes, type ExportScope, type FileFormat } from './exportUrl.ts';
import { cacheResources } from './spm.ts';
import type { Query, ResourceObject } from './types.ts';

export interface ExportDialogProps {
  open: boolean;
  url: string;
  tableQuery: Query;
  /** Query keys that come from the search tags. */
  searchKeys: string[];
  hasFilter: boolean;
  selected: ResourceObject[];
  onClose(): void;
}

/** Export scope (all / selected / filtered) and file type (CSV / Excel), then a download. */
export function ExportDialog({ open, url, tableQuery, searchKeys, hasFilter, selected, onClose }: ExportDialogProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const allowed = exportScopes(hasFilter, selected.length);
  const preferred: ExportScope = allowed.selected ? 'selected' : allowed.filtered ? 'filtered' : 'all';
  const [scope, setScope] = useState<ExportScope>(preferred);
  const [format, setFormat] = useState<FileFormat>('csv');
  const [busy, setBusy] = useState(false);
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setScope(preferred);
  }

  const run = async () => {
    setBusy(true);
    try {
      const spm = scope === 'selected' ? await cacheResources(selected.map((r) => r.id)) : undefined;
      const href = exportHref(url, scope, format, { tableQuery, searchKeys, spm });
      // A guarded export answers with the re-verification first; the client asks and retries.
      await http.raw('GET', href, { probe: true });
      download(href);
      onClose();
    } catch (e) {
      void message.error(errorMessage(e, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('resource.export.title')}
      onCancel={onClose}
      onOk={() => void run()}
      okText={t('resource.export.ok')}
      cancelText={t('resource.cancel')}
      okButtonProps={{ loading: busy, disabled: !allowed[scope] }}
      width="60%"
    >
      <Form layout="horizontal" labelCol={{ span: 5 }}>
        <Form.Item label={t('resource.export.scope')}>
          <Radio.Group value={scope} onChange={(e) => setScope(e.target.value as ExportScope)}>
            <Radio value="all" disabled={!allowed.all}>
              {t('resource.export.all')}
            </Radio>
            <Radio value="selected" disabled={!allowed.selected}>
              {t('resource.export.selected', { count: selected.length })}
            </Radio>
            <Radio value="filtered" disabled={!allowed.filtered}>
              {t('resource.export.filtered')}
            </Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item label={t('resource.export.format')}>
          <Radio.Group value={format} onChange={(e) => setFormat(e.target.value as FileFormat)}>
            <Radio value="csv">CSV</Radio>
            <Radio value="xlsx">Excel</Radio>
          </Radio.Group>
        </Form.Item>
      </Form>
    </Modal>
  );
}
