import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { http } from '../lib/http.ts';
import { serverDetail } from './errorMessage.ts';
import { detailUrl, withQuery } from './resourceUrl.ts';
import { cacheResources } from './spm.ts';
import type { ResourceObject } from './types.ts';
import { objectName } from './values.ts';

/**
 * Confirmed single and bulk deletes with the catalogue's messages:
 * a single row is `DELETE <url><id>/`; rows are cached as an spm, then `DELETE <url>?spm=`.
 */
export function useDeleteResource(url: string) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();

  const confirmDelete = (row: ResourceObject, after: () => void) =>
    modal.confirm({
      title: t('resource.delete.title'),
      content: t('resource.delete.warning', { name: objectName(row.name ?? row.hostname ?? row.id) }),
      okType: 'danger',
      okText: t('resource.delete.ok'),
      cancelText: t('resource.cancel'),
      onOk: async () => {
        try {
          await http.delete(detailUrl(url, row.id));
          void message.success(t('resource.delete.success'));
          after();
        } catch (e) {
          const detail = serverDetail(e);
          void message.error(detail ? t('resource.delete.error', { detail }) : t('resource.delete.failed'));
        }
      },
    });

  const confirmBulkDelete = (rows: ResourceObject[], after: () => void) =>
    modal.confirm({
      title: t('resource.delete.title'),
      content: t('resource.delete.bulkWarning', { count: rows.length }),
      okType: 'danger',
      okText: t('resource.delete.ok'),
      cancelText: t('resource.cancel'),
      onOk: async () => {
        try {
          const spm = await cacheResources(rows.map((r) => r.id));
          await http.delete(withQuery(url, { spm }));
          void message.success(t('resource.delete.bulkSuccess'));
          after();
        } catch (e) {
          void message.error(
            t('resource.delete.bulkError', { detail: serverDetail(e) || t('resource.delete.failed') }),
          );
        }
      },
    });

  return { confirmDelete, confirmBulkDelete };
}
